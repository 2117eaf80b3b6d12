import net from 'node:net';

import { describe, expect, it } from 'vitest';

import { HOST_PORT_RANGE, holdHostPort, isPortFree, releaseHostPort } from './host-ports.ts';

/** Math.random's stand-in: the given fractions in turn. */
function sequence(...values: number[]): () => number {
  let next = 0;
  return () => values[next++ % values.length] ?? 0;
}

const RANGE = { min: 100, max: 109 };
const FREE = (): Promise<boolean> => Promise.resolve(true);

describe('holdHostPort', () => {
  it("takes ports below Linux's default ephemeral range, which the kernel never hands out", () => {
    expect(HOST_PORT_RANGE.max).toBeLessThan(32_768);
    expect(HOST_PORT_RANGE.min).toBeGreaterThan(1024);
  });

  it.each([
    { name: 'the first try when it is free', randoms: [0.5], busy: [], expected: 105 },
    { name: 'the next try when the first is in use on the machine', randoms: [0.5, 0.2], busy: [105], expected: 102 },
    { name: 'the highest port of the range', randoms: [0.999], busy: [], expected: 109 },
  ])('$name', async ({ randoms, busy, expected }: { randoms: number[]; busy: number[]; expected: number }) => {
    const port = await holdHostPort({
      range: RANGE,
      random: sequence(...randoms),
      isFree: (candidate) => Promise.resolve(!busy.includes(candidate)),
    });
    expect(port).toBe(expected);
    releaseHostPort(port);
  });

  it('never gives a port twice while a pod holds it, and gives it again once released', async () => {
    const first = await holdHostPort({ range: RANGE, random: sequence(0.3), isFree: FREE });
    const second = await holdHostPort({ range: RANGE, random: sequence(0.3, 0.3, 0.6), isFree: FREE });
    expect([first, second]).toEqual([103, 106]);
    releaseHostPort(first);
    expect(await holdHostPort({ range: RANGE, random: sequence(0.3), isFree: FREE })).toBe(103);
    releaseHostPort(103);
    releaseHostPort(second);
  });

  it('two choices at the same time never take the same port', async () => {
    const slowFree = (): Promise<boolean> =>
      new Promise((resolve) => {
        setTimeout(() => {
          resolve(true);
        }, 5);
      });
    const ports = await Promise.all([
      holdHostPort({ range: RANGE, random: sequence(0.4, 0.8), isFree: slowFree }),
      holdHostPort({ range: RANGE, random: sequence(0.4, 0.8), isFree: slowFree }),
    ]);
    expect(ports.sort()).toEqual([104, 108]);
    for (const port of ports) {
      releaseHostPort(port);
    }
  });

  it('gives up with an error naming the range when none is free', async () => {
    await expect(holdHostPort({ range: RANGE, isFree: () => Promise.resolve(false) })).rejects.toThrow(
      'no free host port in 100-109',
    );
  });
});

describe('isPortFree', () => {
  it('is false while a listener holds the port and true once it closed', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    expect(await isPortFree(port)).toBe(false);
    await new Promise((resolve) => server.close(resolve));
    expect(await isPortFree(port)).toBe(true);
  });
});
