import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';

import { BucketGate } from './bucket-gate.ts';
import { registerShardMetrics } from './shard-metrics.ts';

describe('registerShardMetrics', () => {
  it('exports members, buckets by state, handovers by kind and objects waiting for their label, labelled with the ring', async () => {
    const registry = new Registry();
    const gate = new BucketGate();
    const observer = registerShardMetrics(registry, { ring: 'kruise-ts-cloneset', gate, unlabelled: () => 7 });
    gate.set(1, 'active');
    gate.set(2, 'active');
    gate.set(3, 'draining');
    observer.members(3);
    observer.handover('acquired', 1);
    observer.handover('acquired', 2);
    observer.handover('taken_over', 3);
    const text = await registry.metrics();
    expect(text).toContain('kruise_ts_shard_members{ring="kruise-ts-cloneset"} 3');
    expect(text).toContain('kruise_ts_shard_buckets{ring="kruise-ts-cloneset",state="active"} 2');
    expect(text).toContain('kruise_ts_shard_buckets{ring="kruise-ts-cloneset",state="draining"} 1');
    expect(text).toContain('kruise_ts_shard_buckets{ring="kruise-ts-cloneset",state="acquiring"} 0');
    expect(text).toContain('kruise_ts_shard_handovers_total{ring="kruise-ts-cloneset",kind="acquired"} 2');
    expect(text).toContain('kruise_ts_shard_handovers_total{ring="kruise-ts-cloneset",kind="taken_over"} 1');
    expect(text).toContain('kruise_ts_shard_unlabelled_objects{ring="kruise-ts-cloneset"} 7');
  });
});
