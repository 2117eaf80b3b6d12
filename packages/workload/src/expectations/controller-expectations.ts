/**
 * A controller's expectation stores wired to its manager: the keys waiting and the longest wait are
 * exported (`kruise_ts_expectations_unsatisfied`, `..._oldest_unsatisfied_seconds`,
 * `..._wait_duration_seconds`, by controller and kind), a timeout is logged as a warning naming what
 * never showed in the cache and counted in `kruise_ts_expectations_timeouts_total`, and, in a sharded
 * manager, the scale expectations of the owners of buckets this replica takes are forgotten: another
 * replica worked on those owners meanwhile, so what this one expected of them may never show.
 */
import type { Manager } from '@kruise-ts/controller-runtime';

import { expectationCollectorsOf } from './expectation-collectors.ts';
import type { ExpectationKind } from './expectation-collectors.ts';
import type { ExpectationsOptions } from './expectation-timeout.ts';
import { ResourceVersionExpectations } from './resource-version-expectations.ts';
import { ScaleExpectations } from './scale-expectations.ts';

/** What the stores are wired to: a manager (its registry, its logger and its bucket takeovers). */
export type ExpectationsHost = Pick<Manager, 'metrics' | 'logger' | 'onOwnersTaken'>;

/** A store's options; its metrics and timeout report come from the host. */
export type ExpectationStoreOptions = Pick<ExpectationsOptions<unknown>, 'timeoutMs' | 'clock'>;

/** Both stores of a controller, named as every app's dependencies name them. */
export interface ControllerExpectations {
  readonly scaleExpectations: ScaleExpectations;
  readonly resourceVersionExpectations: ResourceVersionExpectations;
}

/** Both expectation stores of `controller`, with the same options. */
export function controllerExpectations(
  host: ExpectationsHost,
  controller: string,
  options: ExpectationStoreOptions = {},
): ControllerExpectations {
  return {
    scaleExpectations: scaleExpectationsFor(host, controller, options),
    resourceVersionExpectations: resourceVersionExpectationsFor(host, controller, options),
  };
}

/** The scale expectations of `controller` (`kind="scale"`). */
export function scaleExpectationsFor(
  host: ExpectationsHost,
  controller: string,
  options: ExpectationStoreOptions = {},
): ScaleExpectations {
  const timedOut = timeoutCounter(host, controller, 'scale');
  const expectations = new ScaleExpectations({
    ...options,
    metrics: expectationCollectorsOf(host.metrics.registry).forStore(controller, 'scale'),
    onTimeout: (event) => {
      timedOut();
      const outstanding = event.action === 'create' ? 'creations' : 'deletions';
      host.logger.warn(
        { controller, owner: event.ownerKey, action: event.action, pods: event.names, ageMs: event.ageMs },
        `Scale expectation timed out: the cache never showed ${String(event.names.length)} ${outstanding} of ${event.ownerKey}; dropped it and reconciling from the cache`,
      );
    },
  });
  host.onOwnersTaken((taken) => {
    expectations.deleteWhere(taken);
  });
  return expectations;
}

/** The resource-version expectations of `controller` (`kind="resource_version"`). */
export function resourceVersionExpectationsFor(
  host: ExpectationsHost,
  controller: string,
  options: ExpectationStoreOptions = {},
): ResourceVersionExpectations {
  const timedOut = timeoutCounter(host, controller, 'resource_version');
  return new ResourceVersionExpectations({
    ...options,
    metrics: expectationCollectorsOf(host.metrics.registry).forStore(controller, 'resource_version'),
    onTimeout: (event) => {
      timedOut();
      host.logger.warn(
        {
          controller,
          object: event.key,
          expected: event.expectedResourceVersion,
          observed: event.observedResourceVersion,
          ageMs: event.ageMs,
        },
        `Resource version expectation timed out: the cache never showed our write of ${event.key} (resourceVersion ${event.expectedResourceVersion}); dropped it`,
      );
    },
  });
}

function timeoutCounter(host: ExpectationsHost, controller: string, kind: ExpectationKind): () => void {
  const { timeouts } = expectationCollectorsOf(host.metrics.registry);
  return () => {
    timeouts.inc({ controller, kind });
  };
}
