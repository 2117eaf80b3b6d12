/**
 * The CloneSet controller process: flags → manager → controller → run until SIGTERM/SIGINT. Only
 * this file reads the command line and (through client-node's default kubeconfig loading) the
 * environment.
 */
import { managerFlagsSchema, runAppMain } from '@kruise-ts/controller-runtime';

import { setupCloneSetController } from './controller.ts';
import { cloneSetFlagsShape, cloneSetOptionsFromFlags } from './flags.ts';

const schema = managerFlagsSchema.extend(cloneSetFlagsShape);
await runAppMain(process.argv.slice(2), { app: 'cloneset', gate: 'CloneSet', schema, setup: (manager, flags) => setupCloneSetController(manager, cloneSetOptionsFromFlags(flags)) });
