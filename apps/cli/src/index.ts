/**
 * @kruise-ts/cli: the kruise-ts command-line tool and kubectl plugin. The executable is `main.ts`
 * (bundled to dist/kruise-ts-cli.mjs); this entry lets other code run it in-process.
 *
 * STOP: this file is the public API of @kruise-ts/cli.
 */
export { runCli } from './cli/run-cli.ts';
export type { Connect } from './cli/run-cli.ts';
export { processIo, programNameOf } from './cli/cli-io.ts';
export type { CliIo } from './cli/cli-io.ts';
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './cli/exit-codes.ts';
export type { ExitCode } from './cli/exit-codes.ts';
export { connectCluster } from './kubeconfig/connect.ts';
export type { Cluster, ConnectionFlags } from './kubeconfig/connect.ts';
