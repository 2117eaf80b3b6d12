/**
 * The QoS class of a pod template (Kubernetes' `qos.ComputePodQOS` over containers and init
 * containers, cpu and memory only). OpenKruise refuses an in-place resize that would change it, and so
 * does the API server (a pod's QoS class is immutable).
 */
import type { PodTemplateSpec } from '@kruise-ts/api';
import { addDecimals, compareDecimals, parseQuantityText } from '@kruise-ts/revision';
import type { Decimal } from '@kruise-ts/revision';

/** A pod QoS class. */
export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

type Container = NonNullable<NonNullable<PodTemplateSpec['spec']>['containers']>[number];

const QOS_RESOURCES: ReadonlySet<string> = new Set(['cpu', 'memory']);

/** Adds the positive cpu/memory amounts of `list` into `sums`; returns the names that were positive. */
function accumulate(sums: Map<string, Decimal>, list: Readonly<Record<string, string>> | undefined): Set<string> {
  const found = new Set<string>();
  for (const [name, text] of Object.entries(list ?? {})) {
    const value = parseQuantityText(text);
    if (value === undefined) {
      throw new RangeError(`resource ${name} has an invalid quantity ${JSON.stringify(text)}`);
    }
    if (!QOS_RESOURCES.has(name) || value.mantissa <= 0n) {
      continue;
    }
    found.add(name);
    const sum = sums.get(name);
    sums.set(name, sum === undefined ? value : addDecimals(sum, value));
  }
  return found;
}

function requestsMatchLimits(requests: ReadonlyMap<string, Decimal>, limits: ReadonlyMap<string, Decimal>): boolean {
  for (const [name, request] of requests) {
    const limit = limits.get(name);
    if (limit === undefined || compareDecimals(limit, request) !== 0) {
      return false;
    }
  }
  return requests.size === limits.size;
}

function allContainers(spec: PodTemplateSpec['spec']): readonly Container[] {
  return [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
}

/**
 * BestEffort without any cpu/memory request or limit; Guaranteed when every container limits both cpu
 * and memory and the summed requests equal the summed limits; Burstable otherwise. Throws a RangeError
 * for an unparsable quantity (Kubernetes would not have accepted the template).
 */
export function podQosClass(spec: PodTemplateSpec['spec']): QosClass {
  const requests = new Map<string, Decimal>();
  const limits = new Map<string, Decimal>();
  let guaranteed = true;
  for (const container of allContainers(spec)) {
    accumulate(requests, container.resources?.requests);
    const limited = accumulate(limits, container.resources?.limits);
    guaranteed &&= limited.has('cpu') && limited.has('memory');
  }
  if (requests.size === 0 && limits.size === 0) {
    return 'BestEffort';
  }
  return guaranteed && requestsMatchLimits(requests, limits) ? 'Guaranteed' : 'Burstable';
}
