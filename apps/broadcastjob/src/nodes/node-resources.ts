/**
 * A pod's resource requests and whether they fit a node's allocatable resources, as the scheduler's
 * NodeResourcesFit filter computes them (Kubernetes 1.30, OpenKruise 1.8's): the sum of the
 * containers' requests, at least the largest need of an init container (sidecars, init containers
 * with `restartPolicy: Always`, keep theirs for the pod's life), plus `spec.overhead`. Quantities are
 * added exactly and then rounded up, cpu to millicores and the rest to whole units, as Go's
 * `MilliValue()` and `Value()` do. Pod-level `spec.resources` (Kubernetes 1.32+) is not read:
 * OpenKruise's scheduler code predates it.
 */
import type { Node, Pod } from '@kruise-ts/api';
import { labelKeySchema } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { addDecimals, compareDecimals, parseQuantityText } from '@kruise-ts/revision';
import type { Decimal } from '@kruise-ts/revision';

type Container = DeepReadonly<NonNullable<Pod['spec']>['containers'][number]>;
/** A resource list as JSON carries it: quantities are strings, but a template may hold numbers or null. */
type ResourceList = Readonly<Record<string, unknown>>;

const ZERO: Decimal = { mantissa: 0n, exponent: 0 };
/**
 * Beyond 10^40 no node has any resource; bounding values there keeps exact arithmetic cheap for
 * absurd quantities such as `1e2000000000` (Go's int64 conversion would overflow on them anyway).
 */
const LARGEST_EXPONENT = 40;
const NAMED_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'] as const;

function digitCount(value: bigint): number {
  return (value < 0n ? -value : value).toString().length;
}

/** A quantity's exact value; null, absent or unreadable (the API server refuses those) is zero. */
export function quantityAmount(value: unknown): Decimal {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  const parsed = text === undefined ? undefined : parseQuantityText(text);
  if (parsed === undefined) {
    return ZERO;
  }
  if (digitCount(parsed.mantissa) + parsed.exponent <= LARGEST_EXPONENT) {
    return parsed;
  }
  return { mantissa: parsed.mantissa < 0n ? -1n : 1n, exponent: LARGEST_EXPONENT + 1 };
}

function added(total: ReadonlyMap<string, Decimal>, list: ResourceList | undefined): Map<string, Decimal> {
  const sum = new Map(total);
  for (const [name, value] of Object.entries(list ?? {})) {
    sum.set(name, addDecimals(sum.get(name) ?? ZERO, quantityAmount(value)));
  }
  return sum;
}

function summed(total: ReadonlyMap<string, Decimal>, other: ReadonlyMap<string, Decimal>): Map<string, Decimal> {
  const sum = new Map(total);
  for (const [name, value] of other) {
    sum.set(name, addDecimals(sum.get(name) ?? ZERO, value));
  }
  return sum;
}

function maxed(total: ReadonlyMap<string, Decimal>, other: ReadonlyMap<string, Decimal>): Map<string, Decimal> {
  const max = new Map(total);
  for (const [name, value] of other) {
    const current = max.get(name);
    if (current === undefined || compareDecimals(value, current) > 0) {
      max.set(name, value);
    }
  }
  return max;
}

/** The most any init container needs while it runs: its own requests plus the sidecars started before it. */
function initContainerPeak(initContainers: readonly Container[]): {
  readonly peak: Map<string, Decimal>;
  readonly sidecars: Map<string, Decimal>;
} {
  let peak = new Map<string, Decimal>();
  let sidecars = new Map<string, Decimal>();
  for (const container of initContainers) {
    if (container.restartPolicy === 'Always') {
      sidecars = added(sidecars, container.resources?.requests);
      peak = maxed(peak, sidecars);
    } else {
      peak = maxed(peak, added(sidecars, container.resources?.requests));
    }
  }
  return { peak, sidecars };
}

/** The pod's requests by resource name, exact (Kubernetes' `resource.PodRequests` without options). */
export function podRequests(pod: DeepReadonly<Pod>): Map<string, Decimal> {
  let requests = new Map<string, Decimal>();
  for (const container of pod.spec?.containers ?? []) {
    requests = added(requests, container.resources?.requests);
  }
  const init = initContainerPeak(pod.spec?.initContainers ?? []);
  requests = maxed(summed(requests, init.sidecars), init.peak);
  return added(requests, pod.spec?.overhead);
}

/**
 * Extended resources (`example.com/gpu`), hugepages, attachable volumes and other `kubernetes.io/`
 * resources: the names the scheduler tracks besides cpu, memory, ephemeral-storage and pods.
 */
export function isScalarResource(name: string): boolean {
  if (name.startsWith('hugepages-') || name.startsWith('attachable-volumes-') || name.includes('kubernetes.io/')) {
    return true;
  }
  return name.includes('/') && !name.startsWith('requests.') && labelKeySchema.safeParse(`requests.${name}`).success;
}

/** ceil(value / 10^exponent), as Go's `ScaledValue`. */
function scaledUp(value: Decimal, exponent: number): bigint {
  const shift = value.exponent - exponent;
  if (shift >= 0) {
    return value.mantissa * 10n ** BigInt(shift);
  }
  const divisor = 10n ** BigInt(-shift);
  const quotient = value.mantissa / divisor;
  return value.mantissa > 0n && value.mantissa % divisor !== 0n ? quotient + 1n : quotient;
}

/** The units the scheduler compares a resource in: millicores for cpu, whole units otherwise. */
function units(name: string, value: Decimal): bigint {
  return scaledUp(value, name === 'cpu' ? -3 : 0);
}

/**
 * The scheduler's reasons ("Too many pods", "Insufficient cpu", "Insufficient example.com/gpu") why
 * requests do not fit allocatable resources; empty when they fit. As in OpenKruise, the node is taken
 * to run no pods at all (its NodeInfo is empty): only allocatable versus this pod's requests counts.
 */
export function insufficientResources(requests: ReadonlyMap<string, Decimal>, node: DeepReadonly<Node>): string[] {
  const allocatable: ResourceList = node.status?.allocatable ?? {};
  const reasons = units('pods', quantityAmount(allocatable['pods'])) < 1n ? ['Too many pods'] : [];
  const scalars = [...requests.keys()].filter(isScalarResource).sort();
  for (const name of [...NAMED_RESOURCES, ...scalars]) {
    const requested = units(name, requests.get(name) ?? ZERO);
    if (requested > 0n && requested > units(name, quantityAmount(allocatable[name]))) {
      reasons.push(`Insufficient ${name}`);
    }
  }
  return reasons;
}
