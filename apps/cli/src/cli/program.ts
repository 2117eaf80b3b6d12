/**
 * The command line: kubectl's connection flags (accepted before or after the command, as kubectl
 * accepts them) and the commands, each a thin binding of parsed arguments to a function in commands/.
 */
import { Command } from 'commander';

import type { CommandContext } from '../commands/command-context.ts';
import { rolloutPause } from '../commands/rollout-pause.ts';
import { rolloutRestart } from '../commands/rollout-restart.ts';
import { scale } from '../commands/scale.ts';
import { setImage } from '../commands/set-image.ts';
import type { Cluster } from '../kubeconfig/connect.ts';
import type { CliIo } from './cli-io.ts';
import { globalFlags, parseCount, scaleOptions, stringArgs } from './option-values.ts';
import type { GlobalFlags } from './option-values.ts';

/** One run of the program: its io, and how it reaches a cluster. */
export interface Session {
  readonly io: CliIo;
  readonly connect: (flags: GlobalFlags) => Promise<Cluster>;
}

const OBJECT_ARGUMENT = 'TYPE/NAME or TYPE NAME: cloneset/web, clone/web, asts/db, statefulset.apps.kruise.io/db';

export function buildProgram(session: Session): Command {
  const program = new Command(session.io.programName)
    .description('Rollouts, selective scale-in and images of CloneSets and Advanced StatefulSets (apps.kruise.io), kubectl-style.')
    .option('--kubeconfig <file>', 'the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--context <name>', 'the kubeconfig context to use (default: its current context)')
    .option('-n, --namespace <namespace>', "the object's namespace (default: the context's namespace, else default)")
    .exitOverride()
    .configureOutput({ writeOut: (text) => { session.io.stdout(text); }, writeErr: (text) => { session.io.stderr(text); } })
    .showSuggestionAfterError();
  addRolloutCommands(program, session);
  addScaleCommand(program, session);
  addSetCommands(program, session);
  addUsageHints(program, session.io.programName);
  return program;
}

function contextOf(session: Session, command: Command): CommandContext {
  return { io: session.io, cluster: () => session.connect(globalFlags(command.optsWithGlobals())) };
}

function addRolloutCommands(program: Command, session: Session): void {
  const rollout = program.command('rollout').description('Manage the rollout of a CloneSet or an Advanced StatefulSet.');
  rollout
    .command('pause')
    .description('Pause the rolling update (spec.updateStrategy.paused; rollingUpdate.paused on an Advanced StatefulSet).')
    .argument('<object...>', OBJECT_ARGUMENT)
    .action((objects: unknown, _options: unknown, command: Command) => rolloutPause(contextOf(session, command), stringArgs(objects), true));
  rollout
    .command('resume')
    .description('Resume a paused rolling update.')
    .argument('<object...>', OBJECT_ARGUMENT)
    .action((objects: unknown, _options: unknown, command: Command) => rolloutPause(contextOf(session, command), stringArgs(objects), false));
  rollout
    .command('restart')
    .description('Replace every pod, as kubectl rollout restart does (a kubectl.kubernetes.io/restartedAt template annotation).')
    .argument('<object...>', OBJECT_ARGUMENT)
    .action((objects: unknown, _options: unknown, command: Command) => rolloutRestart(contextOf(session, command), stringArgs(objects)));
}

function addScaleCommand(program: Command, session: Session): void {
  program
    .command('scale')
    .description('Set the number of pods, and choose the pods a scale-in deletes (podsToDelete; reserveOrdinals on an Advanced StatefulSet).')
    .argument('<object...>', OBJECT_ARGUMENT)
    .requiredOption('--replicas <count>', 'the new number of pods', parseCount)
    .option('--delete <pods>', 'pods to delete, separated by commas; each must exist and belong to the object')
    .addHelpText('after', '\nExamples:\n  scale clone/web --replicas 3 --delete web-abcde,web-fghij\n  scale asts/db --replicas 2 --delete db-1\n')
    .action((objects: unknown, options: unknown, command: Command) => scale(contextOf(session, command), stringArgs(objects), scaleOptions(options)));
}

function addSetCommands(program: Command, session: Session): void {
  const set = program.command('set').description('Change a field of the pod template.');
  set
    .command('image')
    .description("Set containers' images, in kubectl's syntax (*=IMAGE sets every container).")
    .argument('<args...>', `the object (${OBJECT_ARGUMENT}) and CONTAINER=IMAGE pairs`)
    .addHelpText('after', '\nExamples:\n  set image clone/web nginx=nginx:1.27\n  set image asts/db db=postgres:17 sidecar=busybox:1.37\n  set image clone/web *=nginx:1.27\n')
    .action((args: unknown, _options: unknown, command: Command) => setImage(contextOf(session, command), stringArgs(args)));
}

/** After a usage error, every command names its own help. */
function addUsageHints(command: Command, path: string): void {
  command.showHelpAfterError(`See '${path} --help' for usage.`);
  for (const sub of command.commands) {
    addUsageHints(sub, `${path} ${sub.name()}`);
  }
}
