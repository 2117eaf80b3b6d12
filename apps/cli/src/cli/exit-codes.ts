/**
 * The exit codes scripts can rely on. kubectl exits 1 for everything; we split a usage mistake (2,
 * which a retry will not fix) from a refusal or a failure of the API server (1).
 */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export type ExitCode = typeof EXIT_OK | typeof EXIT_FAILURE | typeof EXIT_USAGE;
