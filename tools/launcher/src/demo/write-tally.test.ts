import { describe, expect, it } from 'vitest';

import { WriteTally } from './write-tally.ts';

type RequestRecord = Parameters<WriteTally['observeRequest']>[0];
const record = (method: string, path: string, verb: string): RequestRecord => ({
  verb,
  method,
  path,
  code: '201',
  host: 'h',
  durationSeconds: 0,
  rateLimiterSeconds: 0,
});
const failed = (record: RequestRecord): RequestRecord => ({ ...record, code: '409' });

describe('WriteTally', () => {
  it('counts successful writes by resource and subresource, not reads or failures', () => {
    const tally = new WriteTally();
    tally.observeRequest(record('POST', '/api/v1/namespaces/d/pods', 'create'));
    tally.observeRequest(record('PATCH', '/api/v1/namespaces/d/pods/p1/status', 'patch'));
    tally.observeRequest(record('PATCH', '/api/v1/namespaces/d/pods/p1', 'patch'));
    tally.observeRequest(failed(record('PATCH', '/api/v1/namespaces/d/pods/p1', 'patch')));
    tally.observeRequest(record('GET', '/api/v1/namespaces/d/pods/p1', 'get'));
    tally.observeRequest(record('PATCH', '/apis/apps.kruise.io/v1alpha1/namespaces/d/clonesets/s/status', 'patch'));
    expect(tally.total('pods')).toBe(3);
    expect(tally.total('pods', false)).toBe(2);
    expect(tally.describe()).toBe('clonesets/status patch 1, pods create 1, pods patch 1, pods/status patch 1');
  });
});
