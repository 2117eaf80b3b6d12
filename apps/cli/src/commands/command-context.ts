import type { CliIo } from '../cli/cli-io.ts';
import type { Cluster } from '../kubeconfig/connect.ts';
import type { KindId } from '../resources/kinds.ts';

/** What a command runs with. */
export interface CommandContext {
  readonly io: CliIo;
  /** The cluster, connected on first use: a command refused for its arguments never reads the kubeconfig. */
  readonly cluster: () => Promise<Cluster>;
}

/** The kinds the rollout, scale and set commands of this step work on. */
export const ROLLOUT_KINDS: readonly KindId[] = ['cloneset', 'advanced-statefulset'];
