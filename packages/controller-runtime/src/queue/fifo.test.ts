import { describe, expect, it } from 'vitest';

import { Fifo } from './fifo.ts';

describe('Fifo', () => {
  it('returns items in insertion order across compactions', () => {
    const fifo = new Fifo<number>();
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) {
      fifo.push(i);
      if (i % 3 === 0) {
        out.push(fifo.shift());
      }
    }
    while (fifo.length > 0) {
      out.push(fifo.shift());
    }
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });

  it('keeps undefined items and throws when empty', () => {
    const fifo = new Fifo<string | undefined>();
    fifo.push(undefined);
    expect(fifo.length).toBe(1);
    expect(fifo.shift()).toBeUndefined();
    expect(() => fifo.shift()).toThrow(RangeError);
    fifo.push('a');
    fifo.clear();
    expect(fifo.length).toBe(0);
  });
});
