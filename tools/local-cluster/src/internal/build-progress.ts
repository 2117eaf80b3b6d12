/**
 * Progress of a running `go build -v`: a cold Kubernetes build compiles for minutes, and one line per
 * tool would leave a new user looking at a frozen screen. `go build -v` names each package on stderr
 * as it starts compiling it (and `go: downloading <module> <version>` for each module it fetches), so
 * counting those lines says how far the build is without knowing the total in advance.
 */

/** What one stderr line of `go build -v` says, if anything. */
export type GoBuildEvent =
  { readonly kind: 'package'; readonly path: string } | { readonly kind: 'download'; readonly module: string };

/** Where a redrawn progress line can go; `process.stdout` and `process.stderr` fit. */
export interface ProgressTerminal {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

/** The counters the progress line shows. */
export interface BuildProgress {
  readonly tool: string;
  readonly packages: number;
  readonly downloads: number;
  readonly elapsedMs: number;
  /** The last event: the package compiling now or the module being fetched. */
  readonly current: GoBuildEvent | undefined;
}

// An import path has no spaces and no colons, which sets it apart from compiler errors
// (`main.go:3:2: ...`), their `# package` headers and Go's other notes.
const IMPORT_PATH = /^[\w.~+-]+(?:\/[\w.~+-]+)*$/;
const DOWNLOAD = /^go: downloading (\S+ \S+)$/;

export function parseGoBuildLine(line: string): GoBuildEvent | undefined {
  const text = line.trim();
  const download = DOWNLOAD.exec(text)?.[1];
  if (download !== undefined) {
    return { kind: 'download', module: download };
  }
  return IMPORT_PATH.test(text) ? { kind: 'package', path: text } : undefined;
}

/** `45s`, `3m12s` */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function subjectOf(current: GoBuildEvent | undefined): string {
  if (current === undefined) {
    return '';
  }
  return current.kind === 'package' ? current.path : `downloading ${current.module}`;
}

/**
 * `building kube: 412 packages compiled, 3m12s, now k8s.io/kubernetes/pkg/controller/job`, at most
 * `maxWidth` characters: a redrawn line that wraps can no longer be redrawn, so a long package path
 * loses its head (its tail names the package) and the line is cut as a last resort.
 */
export function formatBuildProgress(progress: BuildProgress, maxWidth = Number.POSITIVE_INFINITY): string {
  const counts = [
    ...(progress.downloads > 0 ? [`${plural(progress.downloads, 'module')} downloaded`] : []),
    `${plural(progress.packages, 'package')} compiled`,
  ];
  const head = `building ${progress.tool}: ${counts.join(', ')}, ${formatElapsed(progress.elapsedMs)}`;
  const subject = subjectOf(progress.current);
  if (subject === '') {
    return head.slice(0, maxWidth);
  }
  const line = `${head}, now ${subject}`;
  if (line.length <= maxWidth) {
    return line;
  }
  const room = maxWidth - head.length - ', now …'.length;
  return room >= MIN_SUBJECT ? `${head}, now …${tailSegments(subject, room)}` : line.slice(0, maxWidth);
}

const MIN_SUBJECT = 8;

/** The last path segments of `subject` that fit in `room`, or its last `room` characters. */
function tailSegments(subject: string, room: number): string {
  const tail = subject.slice(-room);
  const slash = tail.indexOf('/');
  return slash > 0 ? tail.slice(slash) : tail;
}

export interface BuildProgressOptions {
  readonly tool: string;
  /** Gets a progress line every `logEveryMs` when there is no terminal to redraw one on. */
  readonly log: (line: string) => void;
  readonly terminal?: ProgressTerminal | undefined;
  readonly logEveryMs?: number;
}

/** Follows one build's output; `tick()` shows the progress (on a timer), `finish()` clears it. */
export class BuildProgressReporter {
  readonly #options: BuildProgressOptions;
  readonly #now: () => number;
  readonly #started: number;
  #lastLogged: number;
  #packages = 0;
  #downloads = 0;
  #current: GoBuildEvent | undefined;

  constructor(options: BuildProgressOptions, now: () => number = () => performance.now()) {
    this.#options = options;
    this.#now = now;
    this.#started = now();
    this.#lastLogged = this.#started;
  }

  onOutputLine(line: string): void {
    const event = parseGoBuildLine(line);
    if (event === undefined) {
      return;
    }
    this.#current = event;
    if (event.kind === 'package') {
      this.#packages += 1;
    } else {
      this.#downloads += 1;
    }
  }

  progress(): BuildProgress {
    return {
      tool: this.#options.tool,
      packages: this.#packages,
      downloads: this.#downloads,
      elapsedMs: this.#now() - this.#started,
      current: this.#current,
    };
  }

  tick(): void {
    const { terminal } = this.#options;
    if (terminal?.isTTY === true) {
      // One column short of the width: writing the last column makes some terminals wrap at once.
      const width = terminal.columns === undefined ? undefined : Math.max(terminal.columns - 1, 20);
      terminal.write(`\r\x1b[K${formatBuildProgress(this.progress(), width)}`);
      return;
    }
    const now = this.#now();
    if (now - this.#lastLogged >= (this.#options.logEveryMs ?? DEFAULT_LOG_EVERY_MS)) {
      this.#lastLogged = now;
      this.#options.log(formatBuildProgress(this.progress()));
    }
  }

  /** Erases the redrawn line so that the next log line takes its place. */
  finish(): void {
    if (this.#options.terminal?.isTTY === true) {
      this.#options.terminal.write('\r\x1b[K');
    }
  }
}

const DEFAULT_LOG_EVERY_MS = 15_000;
const TICK_MS = 1000;

/** Runs `build` with a reporter ticking every second; the reporter gets the build's output lines. */
export async function withBuildProgress<T>(
  options: BuildProgressOptions,
  build: (onOutputLine: (line: string) => void) => Promise<T>,
): Promise<T> {
  const reporter = new BuildProgressReporter(options);
  const timer = setInterval(() => {
    reporter.tick();
  }, TICK_MS);
  try {
    return await build((line) => {
      reporter.onOutputLine(line);
    });
  } finally {
    clearInterval(timer);
    reporter.finish();
  }
}
