import os from 'node:os';
import path from 'node:path';

import { z } from 'zod';

import type { ProgressTerminal } from './build-progress.ts';
import { MAX_FAKE_NODES } from './nodes.ts';

export const COMPONENT_NAMES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok'] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];

const delayMs = z.number().int().min(0).max(600_000);

export const localClusterOptionsSchema = z.strictObject({
  /** Names the cluster and its default run directory. */
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lower-case letters, digits and dashes')
    .default('default'),
  /** Where state, logs, PKI and etcd data live; `<cacheRoot>/clusters/<name>` by default. */
  runDir: z.string().min(1).optional(),
  /** Root of the binary cache; `$KRUISE_TS_CACHE_DIR` or `$XDG_CACHE_HOME/kruise-ts` by default (resolved by the caller). */
  cacheRoot: z.string().min(1).optional(),
  nodes: z.number().int().min(1).max(MAX_FAKE_NODES).default(4),
  zones: z.number().int().min(1).max(26).default(3),
  podsPerNode: z.number().int().min(1).max(4094).default(4000),
  /** Fixed apiserver port; a free one when omitted. */
  apiServerPort: z.number().int().min(1).max(65535).optional(),
  /** Leave the cluster running after this process exits (`cluster:up`). */
  detached: z.boolean().default(false),
  /** Return a healthy cluster already running in the same run directory instead of failing. */
  reuse: z.boolean().default(false),
  kubelet: z
    .strictObject({
      podStartDelayMs: delayMs.default(0),
      containerUpdateDelayMs: delayMs.default(0),
      podDeleteDelayMs: delayMs.default(0),
      /**
       * Pod status changes kwok writes at once (its podPlayStageParallelism, 4 by default). One kwok
       * process plays the kubelet of every fake node, where a real cluster has a kubelet per node
       * working in parallel; benchmarks raise it so that the simulated kubelets are not the bottleneck.
       */
      podParallelism: z.number().int().min(1).max(1024).default(4),
    })
    .default({ podStartDelayMs: 0, containerUpdateDelayMs: 0, podDeleteDelayMs: 0, podParallelism: 4 }),
  /**
   * kube-scheduler's client-side rate limit (its clientConnection). kube-scheduler binds one pod per
   * request, so at 100 QPS it binds at most 100 pods a second; benchmarks raise it so that the
   * scheduler is not what they measure.
   */
  schedulerClient: z
    .strictObject({
      qps: z.number().positive().max(1_000_000).default(100),
      burst: z.number().int().positive().max(1_000_000).default(200),
    })
    .default({ qps: 100, burst: 200 }),
  /** kube-controller-manager controllers; see DEFAULT_CONTROLLERS. */
  controllers: z.array(z.string().min(1)).min(1).optional(),
  /** How long each component may take to become ready. */
  startTimeoutMs: z.number().int().positive().default(120_000),
  /**
   * An audit Policy (YAML text) for kube-apiserver; when given, the API server writes JSON audit
   * events to `<runDir>/audit.log` (benchmarks count each client's requests there).
   */
  auditPolicy: z.string().min(1).optional(),
  /** Extra flags per component, appended last (so they override ours). */
  extraArgs: z.partialRecord(z.enum(COMPONENT_NAMES), z.array(z.string())).default({}),
  /** The Go command for building missing tools. */
  goBinary: z.string().min(1).optional(),
  /** Stop the cluster on SIGINT/SIGTERM of this process (and exit). */
  handleSignals: z.boolean().default(true),
});

/** Options of `startLocalCluster`, as the caller writes them. */
export type LocalClusterOptions = z.input<typeof localClusterOptionsSchema> & {
  /** Progress lines (component started, binaries built, ...). */
  readonly log?: (line: string) => void;
  /** Where a running Go build redraws its progress line; see EnsureToolsOptions. */
  readonly progressTerminal?: ProgressTerminal | undefined;
};

export type ResolvedClusterOptions = z.output<typeof localClusterOptionsSchema> & {
  readonly cacheRoot: string;
  readonly runDir: string;
  readonly log: (line: string) => void;
  readonly progressTerminal?: ProgressTerminal | undefined;
};

/**
 * The binary cache root: `$KRUISE_TS_CACHE_DIR`, else `$XDG_CACHE_HOME/kruise-ts`, else
 * `~/.cache/kruise-ts`. Outside the repository so that a clean clone reuses earlier builds.
 */
export function defaultCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['KRUISE_TS_CACHE_DIR'];
  if (explicit !== undefined && explicit !== '') {
    return path.resolve(explicit);
  }
  const xdg = env['XDG_CACHE_HOME'];
  return path.join(xdg !== undefined && xdg !== '' ? xdg : path.join(os.homedir(), '.cache'), 'kruise-ts');
}

/** Validates options; a bad value fails with a message naming the field. */
export function resolveClusterOptions(input: LocalClusterOptions): ResolvedClusterOptions {
  const { log, progressTerminal, ...rest } = input;
  const parsed = localClusterOptionsSchema.safeParse(rest);
  if (!parsed.success) {
    throw new TypeError(`invalid local cluster options: ${z.prettifyError(parsed.error)}`);
  }
  const cacheRoot = parsed.data.cacheRoot ?? defaultCacheRoot();
  return {
    ...parsed.data,
    cacheRoot,
    runDir: parsed.data.runDir ?? path.join(cacheRoot, 'clusters', parsed.data.name),
    log: log ?? (() => undefined),
    progressTerminal,
  };
}
