import { describe, expect, it } from 'vitest';

import { timestampMicros } from './audit-time.ts';

const BASE = Date.UTC(2024, 4, 1, 12, 0, 0) * 1000;

describe('timestampMicros', () => {
  it.each([
    { text: '2024-05-01T12:00:00Z', micros: BASE },
    { text: '2024-05-01T12:00:00.000001Z', micros: BASE + 1 },
    { text: '2024-05-01T12:00:00.123456Z', micros: BASE + 123_456 },
    { text: '2024-05-01T12:00:00.5Z', micros: BASE + 500_000 },
    { text: '2024-05-01T12:00:00.1234567Z', micros: BASE + 123_457 },
    { text: '2024-05-01T14:00:00.000002+02:00', micros: BASE + 2 },
    { text: '2024-05-01t12:00:00z', micros: BASE },
    { text: '2024-05-01 12:00:00Z', micros: undefined },
    { text: '2024-05-01T12:00:00', micros: undefined },
    { text: '2024-13-45T12:00:00Z', micros: undefined },
    { text: '', micros: undefined },
  ])('$text ⇒ $micros', ({ text, micros }) => {
    expect(timestampMicros(text)).toBe(micros);
  });

  it('keeps a sub-millisecond difference exact', () => {
    const received = timestampMicros('2024-05-01T12:00:00.999950Z');
    const completed = timestampMicros('2024-05-01T12:00:01.000200Z');
    expect(received).toBeDefined();
    expect((completed ?? 0) - (received ?? 0)).toBe(250);
  });
});
