/**
 * Extra fake nodes for one test (kwok manages every node annotated `kwok.x-k8s.io/node: fake`), so
 * that a test can cordon, taint or remove nodes without touching the nodes other tests run on.
 *
 * Every such node carries the NoSchedule taint {@link TEST_NODE_TAINT}: without it the scheduler put
 * other tests' pods on them, and when the owning test deleted its nodes those pods lost their fake
 * kubelet (kwok manages only pods of nodes that exist), so they never finished terminating or
 * restarting a container, and the tests waiting for them timed out. A test that uses its nodes
 * gives its pods {@link TEST_NODE_TOLERATION} and selects the nodes by a label of its own.
 */
import { randomBytes } from 'node:crypto';

import { CoreV1Api } from '@kubernetes/client-node';
import type { KubeConfig, V1Node } from '@kubernetes/client-node';

import { buildFakeNodes, podCidrForNode } from '../internal/nodes.ts';
import { waitFor } from '../internal/wait-for.ts';

/** Options of {@link createFakeNodes}. */
export interface CreateFakeNodesOptions {
  /** Node names are `<prefix>-<random>-<i>`. */
  readonly prefix: string;
  readonly count: number;
  /** Added to every node's labels. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Changes to node i before it is created (taints, unschedulable, allocatable). */
  readonly customize?: (node: V1Node, index: number) => V1Node;
}

/** The created nodes; disposing deletes them. */
export interface FakeNodes extends AsyncDisposable {
  readonly names: readonly string[];
}

/** The taint of every node {@link createFakeNodes} makes (after the test's own `customize`). */
export const TEST_NODE_TAINT = { key: 'kruise-ts.io/test-node', value: 'true', effect: 'NoSchedule' } as const;

/** What a pod needs to run on a test's own fake nodes. */
export const TEST_NODE_TOLERATION = {
  key: TEST_NODE_TAINT.key,
  operator: 'Exists',
  effect: TEST_NODE_TAINT.effect,
} as const;

/** Pod CIDRs of test nodes come from the top of the range, far from the cluster's own nodes. */
const FIRST_TEST_NODE_INDEX = 512;

/** Creates `count` fake nodes and waits until kwok reports them Ready. */
export async function createFakeNodes(kubeConfig: KubeConfig, options: CreateFakeNodesOptions): Promise<FakeNodes> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const run = randomBytes(3).toString('hex');
  const offset = FIRST_TEST_NODE_INDEX + (Number.parseInt(run, 16) % 400);
  const nodes = buildFakeNodes({ count: options.count, zones: 1, podsPerNode: 110 }).map((built, index) => {
    const node = structuredClone(built);
    const name = `${options.prefix}-${run}-${String(index)}`;
    const cidr = podCidrForNode(offset + index);
    node.metadata = Object.assign(node.metadata ?? {}, {
      name,
      labels: Object.assign({}, node.metadata?.labels, { 'kubernetes.io/hostname': name }, options.labels),
    });
    node.spec = Object.assign(node.spec ?? {}, { podCIDR: cidr, podCIDRs: [cidr] });
    const customized = options.customize?.(node, index) ?? node;
    customized.spec = Object.assign(customized.spec ?? {}, {
      taints: [...(customized.spec?.taints ?? []), { ...TEST_NODE_TAINT }],
    });
    return customized;
  });
  const names = nodes.map((node) => node.metadata?.name ?? '');
  const dispose = async (): Promise<void> => {
    await Promise.all(names.map((name) => core.deleteNode({ name }).catch(() => undefined)));
  };
  try {
    for (const node of nodes) {
      await core.createNode({ body: node });
    }
    await waitFor(
      async () => {
        const ready = await Promise.all(
          names.map(
            async (name) =>
              (await core.readNode({ name })).status?.conditions?.some(
                (condition) => condition.type === 'Ready' && condition.status === 'True',
              ) === true,
          ),
        );
        return ready.every(Boolean) ? true : undefined;
      },
      { description: `fake nodes ${names.join(', ')} Ready` },
    );
  } catch (error) {
    await dispose();
    throw error;
  }
  return { names, [Symbol.asyncDispose]: dispose };
}
