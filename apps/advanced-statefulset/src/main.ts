/**
 * The Advanced StatefulSet controller process: flags → manager → controller → run until
 * SIGTERM/SIGINT. Only this file reads the command line and the environment.
 */
import { convertObject } from '@kruise-ts/api';
import { managerFlagsSchema, runAppMain } from '@kruise-ts/app-config';
import { webhookFlagsShape } from '@kruise-ts/webhook';

import { setupStatefulSetController } from './controller.ts';
import { statefulSetFlagsShape, statefulSetOptionsFromFlags } from './flags.ts';
import { setupStatefulSetWebhook } from './validation/setup-webhook.ts';

const schema = managerFlagsSchema.extend(statefulSetFlagsShape).extend(webhookFlagsShape);
await runAppMain(process.argv.slice(2), {
  app: 'advanced-statefulset',
  gate: 'AdvancedStatefulSet',
  schema,
  setup: (manager, flags) => setupStatefulSetController(manager, statefulSetOptionsFromFlags(flags)),
  conversionWebhook: convertObject,
  validationWebhook: {
    flag: 'statefulset-validation-webhook',
    setup: (manager, server, flags) => {
      setupStatefulSetWebhook(manager, server, statefulSetOptionsFromFlags(flags));
    },
  },
});
