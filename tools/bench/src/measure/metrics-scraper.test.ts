import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterEach, describe, expect, it } from 'vitest';

import { startMetricsScraper } from './metrics-scraper.ts';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) {
    close();
  }
});

async function metricsServer(): Promise<{ readonly url: string; readonly scrapes: () => number }> {
  let scrapes = 0;
  const server = http.createServer((_request, response) => {
    scrapes++;
    response.end('nodejs_heap_size_used_bytes 1000\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/metrics`, scrapes: () => scrapes };
}

describe('startMetricsScraper', () => {
  it('does not scrape while an idle window is measured, and scrapes again afterwards', async () => {
    const target = await metricsServer();
    const scraper = startMetricsScraper([target.url], 20);
    closers.push(() => {
      scraper.stop();
    });
    await sleep(100);
    expect(target.scrapes()).toBeGreaterThan(0);
    const during = await scraper.withoutScrapes(async () => {
      const before = target.scrapes();
      await sleep(200);
      return target.scrapes() - before;
    });
    expect(during).toBe(0);
    const after = target.scrapes();
    await sleep(100);
    expect(target.scrapes()).toBeGreaterThan(after);
  });
});
