import net from 'node:net';

import { LocalClusterError } from './errors.ts';

/** Asks the kernel for a free TCP port on 127.0.0.1. */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') {
          resolve(address.port);
        } else {
          reject(new Error('no port assigned'));
        }
      });
    });
  });
}

/**
 * Fails fast, naming the component, when a port it must listen on is taken. Without this check the
 * component would crash on bind and the cause would be buried in its log.
 */
export async function assertPortFree(port: number, component: string): Promise<void> {
  const free = await new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, '127.0.0.1', () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
  if (!free) {
    throw new LocalClusterError(`port 127.0.0.1:${String(port)} is already in use`, { component });
  }
}

/** Free ports for every named listener, distinct from each other. */
export async function allocatePorts<const K extends string>(names: readonly K[]): Promise<Record<K, number>> {
  const taken = new Set<number>();
  const result: Partial<Record<K, number>> = {};
  for (const name of names) {
    let port = await freeLoopbackPort();
    while (taken.has(port)) {
      port = await freeLoopbackPort();
    }
    taken.add(port);
    result[name] = port;
  }
  return result as Record<K, number>;
}
