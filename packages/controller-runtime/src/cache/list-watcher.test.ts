import { describe, expect, it } from 'vitest';

import { joinSelectors } from './list-watcher.ts';

describe('joinSelectors', () => {
  it.each([
    [undefined, undefined, undefined],
    ['app=web', undefined, 'app=web'],
    [undefined, 'shard.kruise-ts.io/bucket in (1,2)', 'shard.kruise-ts.io/bucket in (1,2)'],
    ['app=web', 'shard.kruise-ts.io/bucket in (1,2)', 'app=web,shard.kruise-ts.io/bucket in (1,2)'],
    ['', '', undefined],
  ])('joins %j and %j as %j', (first, second, joined) => {
    expect(joinSelectors(first, second)).toBe(joined);
  });
});
