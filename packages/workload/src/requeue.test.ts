import { describe, expect, it } from 'vitest';

import { RequeueAfter } from './requeue.ts';

describe('RequeueAfter', () => {
  it('keeps the shortest positive delay and its reason', () => {
    const requeue = new RequeueAfter();
    expect(requeue.delayMs).toBeUndefined();
    expect(requeue.toResult()).toEqual({});
    requeue.push(5000, 'minReadySeconds');
    requeue.push(0, 'now');
    requeue.push(-1);
    requeue.push(Number.NaN);
    requeue.push(7000, 'later');
    expect(requeue.delayMs).toBe(5000);
    requeue.push(1500.2, 'grace period');
    expect(requeue.delayMs).toBe(1500.2);
    expect(requeue.reason).toBe('grace period');
    expect(requeue.toResult()).toEqual({ requeueAfterMs: 1501 });
  });

  it('merges another collector', () => {
    const a = new RequeueAfter();
    const b = new RequeueAfter();
    a.push(3000, 'a');
    a.merge(b);
    expect(a.delayMs).toBe(3000);
    b.push(1000, 'b');
    a.merge(b);
    expect([a.delayMs, a.reason]).toEqual([1000, 'b']);
  });
});
