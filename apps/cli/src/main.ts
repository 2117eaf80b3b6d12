/**
 * kruise-ts, the command-line tool; also `kubectl kruise-ts` when installed as `kubectl-kruise_ts`.
 * Startup matters here (a command should feel like kubectl): nothing heavy is imported on the way
 * to a command, and @kubernetes/client-node only for exec-plugin credentials (see kubeconfig/connect.ts).
 */
import { processIo } from './cli/cli-io.ts';
import { runCli } from './cli/run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), processIo());
