/**
 * A sidecar's `resourcesPolicy` carried out at injection, as OpenKruise 1.9's pod webhook does
 * (pkg/webhook/pod/mutating sidecarset_resources.go): the target containers are the pod's containers
 * and native sidecars whose names match `targetContainersNameRegex` (searched anywhere in the name, Go's
 * MatchString), leaving out every sidecar of the SidecarSets injected into the pod; their limits and
 * requests are summed or maxed per resource (a target without a limit makes that limit unlimited, a
 * missing request counts as 0); each expression is evaluated with its variable (`memory` when the
 * expression names it, else `cpu`) bound to the aggregate, and the result replaces the sidecar's
 * resources. An unlimited limit is left unset; a plain-number result is cores (to milli-units) for a
 * `cpu` expression and units for a `memory` one. No target container refuses the pod, as OpenKruise does.
 */
import type { Pod, SidecarContainer } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { evaluate } from './calculator.ts';
import { addQuantities, formatQuantity, milliQuantity, quantityOf, unitQuantity } from './quantity.ts';
import type { Quantity } from './quantity.ts';

type PodContainer = NonNullable<Pod['spec']>['containers'][number];
type Resources = NonNullable<PodContainer['resources']>;
type ResourcesPolicy = NonNullable<SidecarContainer['resourcesPolicy']>;
type Expressions = { readonly cpu?: string | undefined; readonly memory?: string | undefined } | undefined;
type ResourceName = 'cpu' | 'memory';

/** A resourcesPolicy that cannot be carried out: OpenKruise's webhook refuses the pod with it. */
export class ResourcesPolicyError extends Error {}

/** The aggregates of the targets: limits absent when unlimited, requests absent when 0 in Go (its zero Quantity). */
interface Aggregate {
  readonly limits: Partial<Record<ResourceName, Quantity>>;
  readonly requests: Partial<Record<ResourceName, Quantity>>;
}

const RESOURCES: readonly ResourceName[] = ['cpu', 'memory'];
const ZERO: Quantity = { nanos: 0n, format: '' };

function amountOf(
  list: Readonly<Record<string, string | number>> | undefined,
  name: ResourceName,
): Quantity | undefined {
  const value = list?.[name];
  return value === undefined ? undefined : quantityOf(value);
}

function sumOf(values: readonly (Quantity | undefined)[]): Quantity {
  return values.reduce<Quantity>((total, value) => (value === undefined ? total : addQuantities(total, value)), {
    nanos: 0n,
    format: 'DecimalSI',
  });
}

/** The largest present value (the first of equals); undefined when none is present. */
function maxOf(values: readonly (Quantity | undefined)[]): Quantity | undefined {
  return values.reduce<Quantity | undefined>(
    (best, value) => (value === undefined || (best !== undefined && value.nanos <= best.nanos) ? best : value),
    undefined,
  );
}

function aggregate(
  targets: readonly DeepReadonly<PodContainer>[],
  mode: ResourcesPolicy['targetContainersMode'],
): Aggregate {
  const limits: Partial<Record<ResourceName, Quantity>> = {};
  const requests: Partial<Record<ResourceName, Quantity>> = {};
  for (const name of RESOURCES) {
    const limitValues = targets.map((container) =>
      amountOf(container.resources?.limits as Readonly<Record<string, string | number>> | undefined, name),
    );
    const requestValues = targets.map((container) =>
      amountOf(container.resources?.requests as Readonly<Record<string, string | number>> | undefined, name),
    );
    const unlimited = limitValues.some((value) => value === undefined);
    const limit = mode === 'sum' ? sumOf(limitValues) : maxOf(limitValues);
    if (!unlimited && limit !== undefined) {
      limits[name] = limit;
    }
    // A sum of 0 is left out (Go checks IsZero); a max is kept whatever its value.
    const request = mode === 'sum' ? sumOf(requestValues) : maxOf(requestValues);
    if (request !== undefined && (mode === 'max' || request.nanos !== 0n)) {
      requests[name] = request;
    }
  }
  return { limits, requests };
}

/** One expression's result as a quantity (OpenKruise evaluateResourceExpression). */
function evaluateExpression(expression: string, aggregated: Quantity): Quantity {
  const variable = /\bmemory\b/.test(expression) ? 'memory' : 'cpu';
  let result;
  try {
    result = evaluate(expression, new Map([[variable, { kind: 'quantity' as const, value: aggregated }]]));
  } catch (error) {
    throw new ResourcesPolicyError(
      `failed to parse expression ${JSON.stringify(expression)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (result.kind === 'quantity') {
    return result.value;
  }
  return variable === 'cpu'
    ? milliQuantity(BigInt(Math.trunc(result.value * 1000)))
    : unitQuantity(BigInt(Math.trunc(result.value)));
}

function computed(
  expressions: Expressions,
  aggregated: Partial<Record<ResourceName, Quantity>>,
  isLimit: boolean,
): Record<string, string> | undefined {
  if (expressions === undefined) {
    return undefined;
  }
  const list: Record<string, string> = {};
  for (const name of RESOURCES) {
    const expression = expressions[name];
    if (expression === undefined || expression === '') {
      continue;
    }
    const value = aggregated[name];
    // An unlimited aggregate limit leaves the sidecar's limit unset.
    if (isLimit && value === undefined) {
      continue;
    }
    list[name] = formatQuantity(evaluateExpression(expression, value ?? ZERO));
  }
  return Object.keys(list).length === 0 ? undefined : list;
}

/** The pod's containers resourcesPolicy may target: native sidecars, then containers, none of them a SidecarSet sidecar. */
function targetsOf(
  pod: DeepReadonly<Pod>,
  pattern: RegExp,
  sidecarNames: ReadonlySet<string>,
): DeepReadonly<PodContainer>[] {
  const native = (pod.spec?.initContainers ?? []).filter((container) => container.restartPolicy === 'Always');
  return [...native, ...(pod.spec?.containers ?? [])].filter(
    (container) => !sidecarNames.has(container.name) && pattern.test(container.name),
  );
}

function compile(expression: string): RegExp {
  try {
    return new RegExp(expression);
  } catch (error) {
    throw new ResourcesPolicyError(
      `invalid regex pattern ${JSON.stringify(expression)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * The sidecar's resources under its policy, for `pod` as it was sent (`sidecarNames`: the names of every
 * sidecar of the SidecarSets injected into it). Throws a ResourcesPolicyError when no container is a target
 * or an expression cannot be evaluated.
 */
export function policyResources(
  pod: DeepReadonly<Pod>,
  policy: DeepReadonly<ResourcesPolicy>,
  sidecarNames: ReadonlySet<string>,
): Resources {
  const targets = targetsOf(pod, compile(policy.targetContainersNameRegex), sidecarNames);
  if (targets.length === 0) {
    throw new ResourcesPolicyError(
      `no containers match the regex pattern ${JSON.stringify(policy.targetContainersNameRegex)}`,
    );
  }
  const { limits, requests } = aggregate(targets, policy.targetContainersMode);
  const computedLimits = computed(policy.resourcesExpr.limits, limits, true);
  const computedRequests = computed(policy.resourcesExpr.requests, requests, false);
  return {
    ...(computedLimits === undefined ? {} : { limits: computedLimits }),
    ...(computedRequests === undefined ? {} : { requests: computedRequests }),
  };
}
