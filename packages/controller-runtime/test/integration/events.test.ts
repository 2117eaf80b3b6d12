import { CoreV1Api } from '@kubernetes/client-node';
import pino from 'pino';
import { describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { createClient, Transport } from '../../src/index.ts';
import { EventRecorder } from '../../src/events/event-recorder.ts';

const kubeConfig = testKubeConfig();
const core = kubeConfig.makeApiClient(CoreV1Api);

describe('event recorder', () => {
  it('counts repeats of an identical event on one Event object, and keeps different messages apart', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'events');
    const configMap = await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: { metadata: { name: 'target' } },
    });
    const recorder = new EventRecorder({
      client: createClient(new Transport({ kubeConfig, qps: 50, burst: 50, userAgent: 'kruise-ts-test' })),
      component: 'test-controller',
      logger: pino({ level: 'silent' }),
      spamBurst: 4,
    });
    const ref = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'target',
      namespace: ns.name,
      uid: configMap.metadata?.uid,
    };
    recorder.warning(ref, 'FailedCreate', 'failed to create pod: quota exceeded');
    recorder.warning(ref, 'FailedCreate', 'failed to create pod: quota exceeded');
    recorder.warning(ref, 'FailedCreate', 'failed to create pod: quota exceeded');
    recorder.normal(ref, 'SuccessfulCreate', 'succeed to create pod target-abcde');
    // The spam filter allows 4 events at once for this object; the fifth is dropped.
    recorder.normal(ref, 'SuccessfulCreate', 'dropped by the spam filter');
    await recorder.flush();

    const events = await waitFor(
      async () => {
        const list = await core.listNamespacedEvent({ namespace: ns.name });
        const ours = list.items.filter((e) => e.involvedObject.name === 'target');
        return ours.length >= 2 ? ours : undefined;
      },
      { description: 'the events of target' },
    );
    const byReason = Object.fromEntries(events.map((e) => [e.reason ?? '', e]));
    expect(events).toHaveLength(2);
    expect(byReason['FailedCreate']).toMatchObject({
      type: 'Warning',
      count: 3,
      message: 'failed to create pod: quota exceeded',
    });
    expect(byReason['SuccessfulCreate']).toMatchObject({
      type: 'Normal',
      count: 1,
      source: { component: 'test-controller' },
    });
  });
});
