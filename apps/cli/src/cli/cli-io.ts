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
  /** The terminal's width when stdout is a terminal; undefined for a pipe or a file. */
  readonly terminalColumns?: number | undefined;
  /** Whether stdout may be coloured: a terminal, and neither NO_COLOR nor TERM=dumb set. */
  readonly colour?: boolean | undefined;
}

const UNSIZED_TERMINAL_COLUMNS = 80;

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
    // A terminal of unknown size (a pseudo-terminal nobody sized) reports 0 columns.
    terminalColumns: process.stdout.isTTY ? process.stdout.columns || UNSIZED_TERMINAL_COLUMNS : undefined,
    colour: process.stdout.isTTY && process.env['NO_COLOR'] === undefined && process.env['TERM'] !== 'dumb',
  };
}
