import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';

import { parseAddress, ProbeServer } from './probe-server.ts';
import type { HealthCheck } from './probe-server.ts';

describe('parseAddress', () => {
  it.each([
    [':8080', { host: undefined, port: 8080 }],
    ['127.0.0.1:9443', { host: '127.0.0.1', port: 9443 }],
    ['[::1]:8000', { host: '::1', port: 8000 }],
    ['0', { host: '127.0.0.1', port: 0 }],
  ])('%s', (address, expected) => {
    expect(parseAddress(address)).toEqual(expected);
  });

  it.each(['8080', 'host:', 'host:99999'])('rejects %s', (address) => {
    expect(() => parseAddress(address)).toThrow(`invalid bind address "${address}"`);
  });
});

describe('ProbeServer', () => {
  it('serves metrics, healthz and readyz with the failed checks named', async () => {
    const registry = new Registry();
    let ready = false;
    const server = new ProbeServer({
      address: '0',
      registry,
      healthz: new Map<string, HealthCheck>([['ping', () => true]]),
      readyz: new Map<string, HealthCheck>([
        ['informers', () => ready],
        ['webhook', () => Promise.reject(new Error('down'))],
      ]),
    });
    const port = await server.listen();
    try {
      const get = async (path: string): Promise<[number, string]> => {
        const response = await fetch(`http://127.0.0.1:${String(port)}${path}`);
        return [response.status, await response.text()];
      };
      expect(await get('/healthz')).toEqual([200, 'ok']);
      expect(await get('/readyz')).toEqual([500, '[-]informers failed\n[-]webhook failed\n']);
      ready = true;
      expect((await get('/readyz'))[1]).toBe('[-]webhook failed\n');
      expect((await get('/metrics'))[0]).toBe(200);
      expect((await get('/other'))[0]).toBe(404);
    } finally {
      await server.close();
    }
  });
});
