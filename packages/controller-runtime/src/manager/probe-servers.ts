import type { Registry } from 'prom-client';

import { ProbeServer } from '../health/probe-server.ts';
import type { HealthCheck } from '../health/probe-server.ts';

/** Ports the servers listen on. */
export interface BoundPorts {
  readonly metrics?: number;
  readonly health?: number;
}

export interface ProbeServersInput {
  readonly metricsAddress?: string | undefined;
  readonly healthProbeAddress?: string | undefined;
  readonly registry: Registry;
  readonly healthz: ReadonlyMap<string, HealthCheck>;
  readonly readyz: ReadonlyMap<string, HealthCheck>;
}

/** Starts the metrics server and the health-probe server that are configured. */
export async function startProbeServers(
  input: ProbeServersInput,
): Promise<{ ports: BoundPorts; close: () => Promise<void> }> {
  const started: ProbeServer[] = [];
  const ports: { metrics?: number; health?: number } = {};
  try {
    if (input.metricsAddress !== undefined) {
      const server = new ProbeServer({ address: input.metricsAddress, registry: input.registry });
      ports.metrics = await server.listen();
      started.push(server);
    }
    if (input.healthProbeAddress !== undefined) {
      const server = new ProbeServer({
        address: input.healthProbeAddress,
        healthz: input.healthz,
        readyz: input.readyz,
      });
      ports.health = await server.listen();
      started.push(server);
    }
  } catch (error) {
    await Promise.all(started.map((server) => server.close()));
    throw error;
  }
  const close = async (): Promise<void> => {
    await Promise.all(started.map((server) => server.close()));
  };
  return { ports, close };
}
