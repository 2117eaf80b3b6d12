/**
 * The CloneSet controller process: flags → manager → controller → run until SIGTERM/SIGINT. Only
 * this file reads the command line and (through client-node's default kubeconfig loading) the
 * environment.
 */
import { managerFlagsSchema, runAppMain } from '@kruise-ts/app-config';
import { webhookFlagsShape } from '@kruise-ts/webhook';

import { setupCloneSetController } from './controller.ts';
import { cloneSetFlagsShape, cloneSetOptionsFromFlags } from './flags.ts';
import { setupCloneSetWebhook } from './validation/setup-webhook.ts';

const schema = managerFlagsSchema.extend(cloneSetFlagsShape).extend(webhookFlagsShape);
await runAppMain(process.argv.slice(2), {
  app: 'cloneset',
  gate: 'CloneSet',
  schema,
  setup: (manager, flags) => setupCloneSetController(manager, cloneSetOptionsFromFlags(flags)),
  validationWebhook: {
    flag: 'cloneset-validation-webhook',
    setup: (manager, server, flags) => {
      setupCloneSetWebhook(manager, server, cloneSetOptionsFromFlags(flags));
    },
  },
});
