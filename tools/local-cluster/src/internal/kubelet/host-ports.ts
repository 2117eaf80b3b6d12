/**
 * Host ports for the process kubelet's container ports. A container binds its host port seconds after
 * the kubelet chose it (after the image's build, the volumes, the process's start), and keeps it for
 * every restart of the pod. A port the kernel handed out (`listen(0)`, the ephemeral range) can be
 * handed to any other process in that window, and a container that cannot bind its port exits, is
 * restarted on the same port and exits again for as long as the other process holds it: a crash loop
 * that a test sees as an app that never gets Ready. So the ports come from below Linux's default
 * ephemeral range (32768-60999), which the kernel never hands out for `listen(0)` or an outgoing
 * connection; each is checked free when chosen, never given twice by this process while a pod holds
 * it, and checked again before a container restarts (see PodWorker).
 */
import net from 'node:net';

export interface HostPortRange {
  readonly min: number;
  readonly max: number;
}

/** Below Linux's default ip_local_port_range (32768-60999) and above the ports services usually take. */
export const HOST_PORT_RANGE: HostPortRange = { min: 20_000, max: 32_767 };

const ATTEMPTS = 200;

/** Ports this process's kubelets gave to pods that still hold them. */
const held = new Set<number>();

/** Whether a listener could bind `port` on every address of this machine now (as a container's `listen(port)` does). */
export async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}

export interface HostPortChoice {
  readonly range?: HostPortRange;
  readonly random?: () => number;
  readonly isFree?: (port: number) => Promise<boolean>;
}

/** A free port of the range that no pod of this process holds; it is held until {@link releaseHostPort}. */
export async function holdHostPort(choice: HostPortChoice = {}): Promise<number> {
  const { range = HOST_PORT_RANGE, random = Math.random, isFree = isPortFree } = choice;
  const size = range.max - range.min + 1;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const port = range.min + Math.floor(random() * size);
    if (held.has(port)) {
      continue;
    }
    // Held before the check, so that a choice made at the same time does not take it too.
    held.add(port);
    if (await isFree(port)) {
      return port;
    }
    held.delete(port);
  }
  throw new Error(`no free host port in ${String(range.min)}-${String(range.max)} after ${String(ATTEMPTS)} tries`);
}

export function releaseHostPort(port: number): void {
  held.delete(port);
}
