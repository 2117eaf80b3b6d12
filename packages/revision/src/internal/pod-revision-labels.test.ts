import { describe, expect, it } from 'vitest';

import { isPodAtRevision, podRevision, revisionLabels } from './pod-revision-labels.ts';

const pod = (label?: string): { metadata: { labels: Record<string, string> } } => ({
  metadata: { labels: label === undefined ? {} : { 'controller-revision-hash': label } },
});

describe('revisionLabels', () => {
  it.each<[boolean, Record<string, string>]>([
    [false, { 'controller-revision-hash': 'sample-597d4cb8fd', 'pod-template-hash': '597d4cb8fd' }],
    [true, { 'controller-revision-hash': '597d4cb8fd', 'pod-template-hash': '597d4cb8fd' }],
  ])('shortHash %s', (shortHash, expected) => {
    expect(revisionLabels('sample-597d4cb8fd', { shortHash })).toEqual(expected);
  });
});

describe('podRevision', () => {
  it('reads controller-revision-hash', () => {
    expect(podRevision(pod('sample-abc'))).toBe('sample-abc');
    expect(podRevision(pod())).toBeUndefined();
    expect(podRevision({})).toBeUndefined();
  });
});

describe('isPodAtRevision', () => {
  it.each<{ name: string; label: string | undefined; revision: string; expected: boolean }>([
    { name: 'full label, full name', label: 'sample-597d4cb8fd', revision: 'sample-597d4cb8fd', expected: true },
    { name: 'short label, full name', label: '597d4cb8fd', revision: 'sample-597d4cb8fd', expected: true },
    { name: 'full label, short name', label: 'sample-597d4cb8fd', revision: '597d4cb8fd', expected: true },
    { name: 'short label, short name', label: '597d4cb8fd', revision: '597d4cb8fd', expected: true },
    { name: 'another revision', label: 'sample-597d4cb8ff', revision: 'sample-597d4cb8fd', expected: false },
    {
      name: 'same hash under another owner name (matched, as in OpenKruise)',
      label: 'other-597d4cb8fd',
      revision: 'sample-597d4cb8fd',
      expected: true,
    },
    { name: 'no label', label: undefined, revision: 'sample-597d4cb8fd', expected: false },
  ])('$name', ({ label, revision, expected }) => {
    expect(isPodAtRevision(pod(label), revision)).toBe(expected);
  });
});
