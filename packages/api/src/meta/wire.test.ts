import type { V1ManagedFieldsEntry, V1Pod } from '@kubernetes/client-node';
import { describe, expectTypeOf, it } from 'vitest';

import type { Pod, Wire } from './wire.ts';

describe('Wire', () => {
  it('turns Date into string at any depth and keeps everything else', () => {
    interface Model {
      at?: Date;
      list: Date[];
      nested: { when: Date; count: number; labels?: { [key: string]: string } };
    }
    expectTypeOf<Wire<Model>>().toEqualTypeOf<{
      at?: string;
      list: string[];
      nested: { when: string; count: number; labels?: { [key: string]: string } };
    }>();
  });

  it('turns the free-form fields client-node types as any into unknown', () => {
    expectTypeOf<Wire<V1ManagedFieldsEntry>['fieldsV1']>().toEqualTypeOf<unknown>();
    expectTypeOf<Wire<V1ManagedFieldsEntry>['time']>().toEqualTypeOf<string | undefined>();
  });

  it('gives pods string timestamps', () => {
    expectTypeOf<NonNullable<Pod['metadata']>['creationTimestamp']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<NonNullable<Pod['status']>['conditions']>[number]['lastTransitionTime']>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<NonNullable<Pod['spec']>['containers'][number]['name']>().toEqualTypeOf<
      NonNullable<V1Pod['spec']>['containers'][number]['name']
    >();
  });
});
