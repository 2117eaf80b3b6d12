import type { RequestObserver } from '../client/transport.ts';
import type { ControllerObserver } from '../controller/controller.ts';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.ts';

/** Feeds `rest_client_*` metrics from the transport's request records. */
export function requestObserver(metrics: RuntimeMetrics): RequestObserver {
  return {
    observeRequest: (record) => {
      metrics.restClientRequests.inc({ code: record.code, method: record.method, host: record.host });
      metrics.restClientRequestDuration.observe({ verb: record.verb, host: record.host }, record.durationSeconds);
      metrics.restClientRateLimiterDuration.observe(
        { verb: record.verb, host: record.host },
        record.rateLimiterSeconds,
      );
    },
    observeDecodeError: ({ resource }) => {
      metrics.clientDecodeErrors.inc({ resource });
    },
  };
}

/** Feeds `controller_runtime_*` metrics from the controller loop. */
export function controllerObserver(metrics: RuntimeMetrics): ControllerObserver {
  return {
    reconciled: ({ controller, outcome, seconds, terminal }) => {
      metrics.reconcileTotal.inc({ controller, result: outcome });
      metrics.reconcileTime.observe({ controller }, seconds);
      if (outcome === 'error') {
        metrics.reconcileErrors.inc({ controller });
      }
      if (terminal) {
        metrics.terminalReconcileErrors.inc({ controller });
      }
    },
    workers: ({ controller, max, active }) => {
      metrics.maxConcurrentReconciles.set({ controller }, max);
      metrics.activeWorkers.set({ controller }, active);
    },
  };
}
