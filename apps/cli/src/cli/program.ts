/**
 * The command line: kubectl's connection flags (accepted before or after the command, as kubectl
 * accepts them) and the commands, each a thin binding of parsed arguments to a function in commands/.
 */
import { Command, Option } from 'commander';

import type { CommandContext } from '../commands/command-context.ts';
import { rolloutPause } from '../commands/rollout-pause.ts';
import { rolloutRestart } from '../commands/rollout-restart.ts';
import { scale } from '../commands/scale.ts';
import { setImage } from '../commands/set-image.ts';
import type { Cluster } from '../kubeconfig/connect.ts';
import { migrateOptions, parseMaxSurge, parseTimeout } from '../migration/options.ts';
import type { CliIo } from './cli-io.ts';
import { parseDuration } from './duration.ts';
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
    .description(
      'Rollouts, selective scale-in and images of CloneSets and Advanced StatefulSets (apps.kruise.io), kubectl-style.',
    )
    .option('--kubeconfig <file>', 'the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--context <name>', 'the kubeconfig context to use (default: its current context)')
    .option('-n, --namespace <namespace>', "the object's namespace (default: the context's namespace, else default)")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => {
        session.io.stdout(text);
      },
      writeErr: (text) => {
        session.io.stderr(text);
      },
    })
    .showSuggestionAfterError();
  addRolloutCommands(program, session);
  addScaleCommand(program, session);
  addSetCommands(program, session);
  addMigrateCommand(program, session);
  addUsageHints(program, session.io.programName);
  return program;
}

function contextOf(session: Session, command: Command): CommandContext {
  return { io: session.io, cluster: () => session.connect(globalFlags(command.optsWithGlobals())) };
}

function addRolloutCommands(program: Command, session: Session): void {
  const rollout = program
    .command('rollout')
    .description('Manage the rollout of a CloneSet or an Advanced StatefulSet.');
  rollout
    .command('pause')
    .description(
      'Pause the rolling update (spec.updateStrategy.paused; rollingUpdate.paused on an Advanced StatefulSet).',
    )
    .argument('<object...>', OBJECT_ARGUMENT)
    .action((objects: unknown, _options: unknown, command: Command) =>
      rolloutPause(contextOf(session, command), stringArgs(objects), true),
    );
  rollout
    .command('resume')
    .description('Resume a paused rolling update.')
    .argument('<object...>', OBJECT_ARGUMENT)
    .action((objects: unknown, _options: unknown, command: Command) =>
      rolloutPause(contextOf(session, command), stringArgs(objects), false),
    );
  rollout
    .command('restart')
    .description(
      'Replace every pod, as kubectl rollout restart does (a kubectl.kubernetes.io/restartedAt template annotation).',
    )
    .argument('<object...>', OBJECT_ARGUMENT)
    .action((objects: unknown, _options: unknown, command: Command) =>
      rolloutRestart(contextOf(session, command), stringArgs(objects)),
    );
  addHistoryCommands(rollout, session);
  addStatusCommand(rollout, session);
}

function addStatusCommand(rollout: Command, session: Session): void {
  rollout
    .command('status')
    .description(
      'Wait for the rollout to finish and show it: bars in a terminal, one line per change otherwise. Also SidecarSets and BroadcastJobs.',
    )
    .argument('<object...>', `${OBJECT_ARGUMENT}, sidecarset/x, bcj/y`)
    .option(
      '--timeout <duration>',
      'how long to wait before giving up, e.g. 5m; 0 waits for ever (the default)',
      (value) => parseDuration(value, true),
    )
    .addOption(
      new Option(
        '--progress <mode>',
        'bars (redrawn in place), lines (one line per change) or auto (bars in a terminal)',
      )
        .choices(['auto', 'bars', 'lines'])
        .default('auto'),
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 rolled out; 1 failed (ProgressDeadlineExceeded, a failed update, an invalid template), timed out, or not found.\n',
    )
    .action(async (objects: unknown, options: unknown, command: Command) => {
      const { rolloutStatus, rolloutStatusOptions } = await import('../commands/rollout-status.ts');
      await rolloutStatus(contextOf(session, command), stringArgs(objects), rolloutStatusOptions(options));
    });
}

/**
 * `rollout history` and `rollout undo`. Their modules are imported when they run: they bring the
 * revision package (Go's encoding of pod templates), which the other commands would only load.
 */
function addHistoryCommands(rollout: Command, session: Session): void {
  rollout
    .command('history')
    .description(
      "List the revisions (ControllerRevisions) with their change causes and images, or show one revision's pod template.",
    )
    .argument('<object...>', OBJECT_ARGUMENT)
    .option('--revision <number>', 'show the pod template of this revision', parseCount)
    .action(async (objects: unknown, options: unknown, command: Command) => {
      const { historyOptions, rolloutHistory } = await import('../commands/rollout-history.ts');
      await rolloutHistory(contextOf(session, command), stringArgs(objects), historyOptions(options));
    });
  rollout
    .command('undo')
    .description("Put a revision's pod template back: the previous revision, or --to-revision N.")
    .argument('<object...>', OBJECT_ARGUMENT)
    .option('--to-revision <number>', 'the revision to go back to (default: the one before the latest)', parseCount)
    .action(async (objects: unknown, options: unknown, command: Command) => {
      const { rolloutUndo, undoOptions } = await import('../commands/rollout-undo.ts');
      await rolloutUndo(contextOf(session, command), stringArgs(objects), undoOptions(options));
    });
}

function addScaleCommand(program: Command, session: Session): void {
  program
    .command('scale')
    .description(
      'Set the number of pods, and choose the pods a scale-in deletes (podsToDelete; reserveOrdinals on an Advanced StatefulSet).',
    )
    .argument('<object...>', OBJECT_ARGUMENT)
    .requiredOption('--replicas <count>', 'the new number of pods', parseCount)
    .option('--delete <pods>', 'pods to delete, separated by commas; each must exist and belong to the object')
    .addHelpText(
      'after',
      '\nExamples:\n  scale clone/web --replicas 3 --delete web-abcde,web-fghij\n  scale asts/db --replicas 2 --delete db-1\n',
    )
    .action((objects: unknown, options: unknown, command: Command) =>
      scale(contextOf(session, command), stringArgs(objects), scaleOptions(options)),
    );
}

function addSetCommands(program: Command, session: Session): void {
  const set = program.command('set').description('Change a field of the pod template.');
  set
    .command('image')
    .description("Set containers' images, in kubectl's syntax (*=IMAGE sets every container).")
    .argument('<args...>', `the object (${OBJECT_ARGUMENT}) and CONTAINER=IMAGE pairs`)
    .addHelpText(
      'after',
      '\nExamples:\n  set image clone/web nginx=nginx:1.27\n  set image asts/db db=postgres:17 sidecar=busybox:1.37\n  set image clone/web *=nginx:1.27\n',
    )
    .action((args: unknown, _options: unknown, command: Command) =>
      setImage(contextOf(session, command), stringArgs(args)),
    );
}

function addMigrateCommand(program: Command, session: Session): void {
  const migrate = program
    .command('migrate')
    .description(
      "Move a Deployment's pods to a CloneSet made from it, in steps that never lower the available pods; the Deployment is left with 0 replicas. Or switch from OpenKruise: migrate from-openkruise.",
    )
    .argument('<object...>', 'the Deployment: deployment/NAME, deploy/NAME or deployment NAME')
    .usage('[options] <object...> | from-openkruise [options]')
    // Not a required option: commander would then demand it of `migrate from-openkruise` too.
    .option('--to <kind>', 'the kind to migrate to: cloneset (the only one for now); required')
    .option('--name <name>', "the CloneSet's name (default: the Deployment's)")
    .option(
      '--max-surge <count>',
      'pods the CloneSet gains per step, a number or a percentage of the pods (default: 1)',
      parseMaxSurge,
    )
    .option(
      '--timeout <duration>',
      'how long one step may wait for pods to become available or go away (default: 10m)',
      parseTimeout,
    )
    .option('--dry-run', 'print the CloneSet and the steps; change nothing')
    .addHelpText(
      'after',
      '\nExamples:\n  migrate deployment/web --to cloneset --dry-run\n  migrate deploy/web --to cloneset --max-surge 25% --timeout 5m\n  migrate from-openkruise --dry-run\n',
    )
    .action(async (objects: unknown, options: unknown, command: Command) => {
      if (typeof (options as { to?: unknown }).to !== 'string') {
        command.error("error: required option '--to <kind>' not specified", {
          exitCode: 2,
          code: 'commander.missingMandatoryOptionValue',
        });
      }
      // Imported when it runs, as the history commands are: the other commands need none of it.
      const { migrate } = await import('../commands/migrate.ts');
      await migrate(contextOf(session, command), stringArgs(objects), migrateOptions(options));
    });
  migrate
    .command('from-openkruise')
    .description(
      'Stop what is left of OpenKruise so that kruise-ts can take over: delete its webhook configurations, scale its manager to 0 (kept for a rollback), and set conversion None on the CRDs it converts whose versions have the same schema.',
    )
    .option(
      '--openkruise-namespace <namespace>',
      "the namespace OpenKruise was installed in (its chart's installation.namespace)",
      'kruise-system',
    )
    .option('--timeout <duration>', "how long to wait for the manager's pods to be gone (default: 10m)", parseTimeout)
    .option('--dry-run', 'print what was found and what would change; change nothing')
    .addHelpText(
      'after',
      '\nExamples:\n  migrate from-openkruise --dry-run\n  migrate from-openkruise --openkruise-namespace openkruise --timeout 5m\n\nExit codes: 0 done (or nothing to do); 1 refused (nothing written), an API error, or a timeout; 2 a wrong command line.\n',
    )
    .action(async (_options: unknown, command: Command) => {
      const [{ migrateFromOpenKruise }, { fromOpenKruiseOptions }] = await Promise.all([
        import('../commands/migrate-from-openkruise.ts'),
        import('../openkruise/options.ts'),
      ]);
      await migrateFromOpenKruise(contextOf(session, command), fromOpenKruiseOptions(command.optsWithGlobals()));
    });
}

/** After a usage error, every command names its own help. */
function addUsageHints(command: Command, path: string): void {
  command.showHelpAfterError(`See '${path} --help' for usage.`);
  for (const sub of command.commands) {
    addUsageHints(sub, `${path} ${sub.name()}`);
  }
}
