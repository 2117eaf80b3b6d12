/**
 * The SidecarSet app process: flags → manager → controller, pod webhook and SidecarSet validation
 * webhook → run until SIGTERM/SIGINT. Only this file reads the command line and the environment.
 */
import { convertObject } from '@kruise-ts/api';
import { managerFlagsSchema, runAppMain } from '@kruise-ts/app-config';
import { webhookFlagsShape } from '@kruise-ts/webhook';

import { setupSidecarSetController } from './controller.ts';
import { sidecarSetFlagsShape, sidecarSetOptionsFromFlags } from './flags.ts';
import { setupSidecarSetValidationWebhook } from './validation/setup-webhook.ts';
import { setupSidecarSetWebhook } from './webhook/setup-webhook.ts';

const schema = managerFlagsSchema.extend(sidecarSetFlagsShape).extend(webhookFlagsShape);
await runAppMain(process.argv.slice(2), {
  app: 'sidecarset',
  gate: 'SidecarSet',
  schema,
  setup: (manager, flags) => setupSidecarSetController(manager, sidecarSetOptionsFromFlags(flags)),
  conversionWebhook: convertObject,
  webhooks: (manager, server, flags) => {
    setupSidecarSetWebhook(manager, server, sidecarSetOptionsFromFlags(flags));
  },
  validationWebhook: {
    flag: 'sidecarset-validation-webhook',
    setup: (manager, server, flags) => {
      setupSidecarSetValidationWebhook(manager, server, sidecarSetOptionsFromFlags(flags));
    },
  },
});
