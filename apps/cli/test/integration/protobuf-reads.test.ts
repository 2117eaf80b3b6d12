/**
 * The CLI's own HTTPS client reads built-in kinds in protobuf, as the controllers do: a list of pods
 * read with a protobuf read's filter (which only a protobuf answer honours) equals the JSON list
 * without the filtered field, and a kind the tables do not cover (a custom resource) is read as JSON.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { compileFieldFilter } from '@kruise-ts/kube-protobuf';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import { HttpsTransport } from '../../src/kubeconfig/https-transport.ts';

const kubeConfig = testKubeConfig();

interface PodList {
  readonly metadata: { readonly resourceVersion: string };
  readonly items: { readonly metadata: { readonly name: string }; readonly spec?: unknown }[];
}

describe('the CLI reads built-in kinds in protobuf', () => {
  it('decodes a pod list answered in protobuf into what the JSON answer gives', async () => {
    await using namespace = await createTestNamespace(kubeConfig, 'cli-protobuf');
    const core = kubeConfig.makeApiClient(CoreV1Api);
    for (const name of ['a', 'b']) {
      await core.createNamespacedPod({
        namespace: namespace.name,
        body: { metadata: { name, labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
      });
    }
    const transport = new HttpsTransport({ kubeConfig, userAgent: 'test', requestTimeoutMs: 10_000 });
    try {
      const path = `/api/v1/namespaces/${namespace.name}/pods`;
      const read = { verb: 'list', method: 'GET', path } as const;
      const json = (await transport.request(read)) as PodList;
      // The filter drops spec only where the decoder reads protobuf: its absence proves the answer was protobuf.
      // The same resourceVersion, exactly: the scheduler and the fake kubelets may change the pods in between.
      const filter = compileFieldFilter('Pod', ['spec']);
      const query = { resourceVersion: json.metadata.resourceVersion, resourceVersionMatch: 'Exact' };
      const protobuf = (await transport.request({
        ...read,
        query,
        protobuf: { resource: 'pods', filter },
      })) as PodList;
      expect(protobuf.items.map((pod) => pod.metadata.name)).toEqual(['a', 'b']);
      expect(protobuf.items.every((pod) => pod.spec === undefined)).toBe(true);
      const { items: jsonItems, ...jsonList } = json;
      const { items: protobufItems, ...protobufList } = protobuf;
      expect(protobufList).toEqual(jsonList);
      expect(protobufItems).toEqual(jsonItems.map(({ spec: _spec, ...rest }) => rest));
      const missing = await transport
        .request({ verb: 'get', method: 'GET', path: `${path}/missing`, protobuf: { resource: 'pods' } })
        .catch((error: unknown) => error);
      // The NotFound Status comes in protobuf too, and still reads as the API server's message.
      expect(missing).toMatchObject({ code: 404, message: expect.stringContaining('"missing" not found') as unknown });
    } finally {
      transport.close();
    }
  });
});
