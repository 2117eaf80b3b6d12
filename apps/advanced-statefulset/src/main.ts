/**
 * The Advanced StatefulSet controller process: flags → manager → controller → run until
 * SIGTERM/SIGINT. Only this file reads the command line and the environment.
 */
import { managerFlagsSchema, runAppMain } from '@kruise-ts/controller-runtime';

import { setupStatefulSetController } from './controller.ts';
import { statefulSetFlagsShape, statefulSetOptionsFromFlags } from './flags.ts';

const schema = managerFlagsSchema.extend(statefulSetFlagsShape);
await runAppMain(process.argv.slice(2), { app: 'advanced-statefulset', gate: 'AdvancedStatefulSet', schema, setup: (manager, flags) => setupStatefulSetController(manager, statefulSetOptionsFromFlags(flags)) });
