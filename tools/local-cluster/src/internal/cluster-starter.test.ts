import { describe, expect, it } from 'vitest';

import { CLUSTER_TOOLS } from './cluster-starter.ts';
import { defaultToolSpecs } from './versions.ts';

describe('the tools a cluster builds', () => {
  it('are etcd, kwok and the kube multi-call binary, not helm', () => {
    expect([...CLUSTER_TOOLS].sort()).toEqual(['etcd', 'kube', 'kwok']);
  });

  it('are all among the tools modules', () => {
    const names = defaultToolSpecs().map((spec) => spec.name);
    expect(names).toEqual(expect.arrayContaining([...CLUSTER_TOOLS]));
  });
});
