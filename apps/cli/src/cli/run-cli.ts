import type { Cluster, ConnectionFlags } from '../kubeconfig/connect.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_OK } from './exit-codes.ts';
import type { ExitCode } from './exit-codes.ts';
import { buildProgram } from './program.ts';
import { reportError } from './report-error.ts';

/** How the program reaches a cluster; tests pass one over an in-memory API. */
export type Connect = (flags: ConnectionFlags, env: NodeJS.ProcessEnv) => Promise<Cluster>;

/**
 * The real connection, imported when a command first needs the cluster: it brings the HTTP client
 * (undici, a good part of the bundle), which help and refused command lines do without.
 */
const connectLazily: Connect = async (flags, env) =>
  (await import('../kubeconfig/connect.ts')).connectCluster(flags, env);

/** Runs one command line (without the executable) and returns its exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo, connect: Connect = connectLazily): Promise<ExitCode> {
  let cluster: Cluster | undefined;
  const program = buildProgram({ io, connect: async (flags) => (cluster ??= await connect(flags, io.env)) });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    return reportError(error, io);
  } finally {
    cluster?.close();
  }
}
