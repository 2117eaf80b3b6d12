/**
 * Everything the program touches outside itself, passed in so that tests run it in-process: its
 * output streams, its environment and the clock.
 */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** How the user called us: `kruise-ts`, or `kubectl kruise-ts` when run as a kubectl plugin. */
  readonly programName: string;
  readonly now: () => Date;
}

const PLUGIN_EXECUTABLE = /^kubectl-kruise_ts(?:\.\w+)?$/;

/** The name to show in usage lines, from the executable's file name (`argv[1]`). */
export function programNameOf(executable: string | undefined): string {
  const base = executable?.split(/[\\/]/).pop() ?? '';
  return PLUGIN_EXECUTABLE.test(base) ? 'kubectl kruise-ts' : 'kruise-ts';
}

/** The real process's streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    programName: programNameOf(process.argv[1]),
    now: () => new Date(),
  };
}
