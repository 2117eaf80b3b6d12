import { setTimeout as sleep } from 'node:timers/promises';

import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { V1Node } from '@kubernetes/client-node';

import { LocalClusterError } from './errors.ts';
import { buildFakeNodes } from './nodes.ts';
import type { ResolvedClusterOptions } from './options.ts';
import type { StartedProcess } from './process-group.ts';
import { componentFailure } from './readiness.ts';

export interface CreateFakeNodesInput {
  readonly kubeconfigPath: string;
  readonly options: ResolvedClusterOptions;
  /** The kwok process, whose log explains nodes that never become Ready. */
  readonly kwok: StartedProcess | undefined;
}

/** Registers the fake nodes and waits until kwok has made every one of them Ready. */
export async function createFakeNodes(input: CreateFakeNodesInput): Promise<void> {
  const { options } = input;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(input.kubeconfigPath);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const nodes = buildFakeNodes({ count: options.nodes, zones: options.zones, podsPerNode: options.podsPerNode });
  for (const node of nodes) {
    await core.createNode({ body: node });
  }
  options.log(`registered ${String(nodes.length)} fake nodes, waiting until kwok reports them Ready...`);
  const deadline = Date.now() + options.startTimeoutMs;
  while (Date.now() < deadline) {
    const exit = input.kwok?.exitInfo();
    if (input.kwok !== undefined && exit !== undefined) {
      throw await componentFailure(input.kwok, 'exited while initialising the fake nodes');
    }
    const listed = await core.listNode();
    if (listed.items.filter(isReady).length >= nodes.length) {
      return;
    }
    await sleep(250);
  }
  const summary = `fake nodes did not become Ready within ${String(Math.round(options.startTimeoutMs / 1000))}s`;
  throw input.kwok === undefined
    ? new LocalClusterError(summary, { component: 'kwok' })
    : await componentFailure(input.kwok, summary);
}

function isReady(node: V1Node): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
