/**
 * The SidecarSet app process: flags → manager → controller → run until SIGTERM/SIGINT. Only this file
 * reads the command line and the environment.
 */
import { managerFlagsSchema, runAppMain } from '@kruise-ts/controller-runtime';

import { setupSidecarSetController } from './controller.ts';
import { sidecarSetFlagsShape, sidecarSetOptionsFromFlags } from './flags.ts';

const schema = managerFlagsSchema.extend(sidecarSetFlagsShape);
await runAppMain(process.argv.slice(2), { app: 'sidecarset', gate: 'SidecarSet', schema, setup: (manager, flags) => setupSidecarSetController(manager, sidecarSetOptionsFromFlags(flags)) });
