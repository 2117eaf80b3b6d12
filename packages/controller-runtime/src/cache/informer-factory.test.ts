import { compileFieldFilter } from '@kruise-ts/kube-protobuf';
import pino from 'pino';
import { describe, expect, it } from 'vitest';

import type { KubeObject } from '../client/kube-object.ts';
import { defineResource } from '../client/resource-type.ts';
import { InformerFactory } from './informer-factory.ts';
import type { InformerFactoryOptions } from './informer-factory.ts';

const pods = defineResource<KubeObject>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
const nodes = defineResource<KubeObject>({
  group: '',
  version: 'v1',
  plural: 'nodes',
  kind: 'Node',
  namespaced: false,
});

/** Informers are never started here, so the client is never called. */
function factory(): InformerFactory {
  return new InformerFactory({ client: {} as InformerFactoryOptions['client'], logger: pino({ level: 'silent' }) });
}

describe('InformerFactory.setTransform', () => {
  const keepName = (object: KubeObject): KubeObject => ({ metadata: { name: object.metadata?.name ?? '' } });

  it('accepts the same transform twice (two apps in one process) and refuses a different one', () => {
    const informers = factory();
    informers.setTransform(pods, keepName);
    informers.setTransform(pods, keepName);
    expect(() => {
      informers.setTransform(pods, (object) => object);
    }).toThrow('a different cache transform is already set for core/v1/pods');
    // Another resource is independent.
    informers.setTransform(nodes, (object) => object);
  });

  it('refuses a transform once the resource has an informer (its cache would hold untransformed objects)', () => {
    const informers = factory();
    informers.informerFor({ resource: pods, labelSelector: 'app' });
    expect(() => {
      informers.setTransform(pods, keepName);
    }).toThrow('the cache transform for core/v1/pods must be set before its first informer is requested');
    informers.setTransform(nodes, keepName);
  });

  it('takes the field filter the transform drops, of the same kind, and the same one again', () => {
    const informers = factory();
    const filter = compileFieldFilter('Pod', ['spec.tolerations']);
    expect(() => {
      informers.setTransform(nodes, keepName, { fieldFilter: filter });
    }).toThrow('the field filter of core/v1/nodes is for Pod, not Node');
    informers.setTransform(pods, keepName, { fieldFilter: filter });
    informers.setTransform(pods, keepName, { fieldFilter: filter });
    expect(() => {
      informers.setTransform(pods, keepName);
    }).toThrow('a different field filter is already set for core/v1/pods');
  });
});
