/**
 * The BroadcastJob app process: flags → manager → controller → run until SIGTERM/SIGINT. Only this
 * file reads the command line and the environment.
 */
import { managerFlagsSchema, runAppMain } from '@kruise-ts/app-config';
import { webhookFlagsShape } from '@kruise-ts/webhook';

import { setupBroadcastJobController } from './controller.ts';
import { broadcastJobFlagsShape, broadcastJobOptionsFromFlags } from './flags.ts';
import { setupBroadcastJobWebhook } from './validation/setup-webhook.ts';

const schema = managerFlagsSchema.extend(broadcastJobFlagsShape).extend(webhookFlagsShape);
await runAppMain(process.argv.slice(2), {
  app: 'broadcastjob',
  gate: 'BroadcastJob',
  schema,
  setup: (manager, flags) => setupBroadcastJobController(manager, broadcastJobOptionsFromFlags(flags)),
  validationWebhook: {
    flag: 'broadcastjob-validation-webhook',
    setup: (manager, server, flags) => {
      setupBroadcastJobWebhook(manager, server, broadcastJobOptionsFromFlags(flags));
    },
  },
});
