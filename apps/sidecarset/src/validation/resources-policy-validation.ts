/**
 * OpenKruise 1.9's checks of a sidecar's resourcesPolicy (pkg/webhook/sidecarset/validating
 * validateResourcesPolicy), at the SidecarSet's own paths: not together with `resources`, only on a
 * native sidecar among the init containers, a regex that compiles, at least limits or requests, and
 * expressions that evaluate (their variable bound to the number 1, as OpenKruise tries them).
 */
import type { SidecarContainer, SidecarSet } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import type { FieldError } from '@kruise-ts/template-validation';

import { evaluate } from '../resources/calculator.ts';

type Sidecar = DeepReadonly<SidecarContainer>;
type Expressions = { readonly cpu?: string | undefined; readonly memory?: string | undefined } | undefined;

const invalid = (field: string, value: unknown, message: string): FieldError => ({
  field,
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: ${message}`,
});

function hasResources(sidecar: Sidecar): boolean {
  const resources = (sidecar as { readonly resources?: { readonly limits?: object; readonly requests?: object } })
    .resources;
  return Object.keys(resources?.limits ?? {}).length > 0 || Object.keys(resources?.requests ?? {}).length > 0;
}

function expressionErrors(expressions: Expressions, path: string): FieldError[] {
  return (['cpu', 'memory'] as const).flatMap((name) => {
    const expression = expressions?.[name];
    if (expression === undefined || expression === '') {
      return [];
    }
    try {
      evaluate(expression, new Map([[name, { kind: 'number' as const, value: 1 }]]));
      return [];
    } catch (error) {
      return [
        invalid(
          `${path}.${name}`,
          expression,
          `invalid expression: ${error instanceof Error ? error.message : String(error)}`,
        ),
      ];
    }
  });
}

function regexErrors(regex: string, path: string): FieldError[] {
  if (regex === '') {
    return [
      {
        field: `${path}.targetContainersNameRegex`,
        reason: 'FieldValueRequired',
        message: 'Required value: invalid empty regex',
      },
    ];
  }
  try {
    new RegExp(regex);
    return [];
  } catch (error) {
    return [
      invalid(
        `${path}.targetContainersNameRegex`,
        regex,
        `invalid regex pattern: ${error instanceof Error ? error.message : String(error)}`,
      ),
    ];
  }
}

function policyErrors(sidecar: Sidecar, path: string): FieldError[] {
  const policy = sidecar.resourcesPolicy;
  if (policy === undefined) {
    return [];
  }
  if (hasResources(sidecar)) {
    return [invalid(path, policy, 'resourcesPolicy and resources cannot be configured together')];
  }
  const { limits, requests } = policy.resourcesExpr;
  const expressions =
    limits === undefined && requests === undefined
      ? [
          invalid(
            `${path}.resourcesExpr`,
            policy.resourcesExpr,
            'at least one of limits or requests must be configured',
          ),
        ]
      : [
          ...expressionErrors(limits, `${path}.resourcesExpr.limits`),
          ...expressionErrors(requests, `${path}.resourcesExpr.requests`),
        ];
  return [...regexErrors(policy.targetContainersNameRegex, path), ...expressions];
}

/** The resourcesPolicy errors of the SidecarSet's containers and init containers. */
export function resourcesPolicyErrors(set: DeepReadonly<SidecarSet>): FieldError[] {
  const initErrors = (set.spec.initContainers ?? []).flatMap((sidecar, index) => {
    const path = `spec.initContainers[${String(index)}].resourcesPolicy`;
    const notNative =
      sidecar.resourcesPolicy !== undefined && sidecar.restartPolicy !== 'Always'
        ? [
            invalid(
              path,
              sidecar.resourcesPolicy,
              'resourcesPolicy is only supported for containers with RestartPolicy Always',
            ),
          ]
        : [];
    return [...notNative, ...policyErrors(sidecar, path)];
  });
  const containerErrors = (set.spec.containers ?? []).flatMap((sidecar, index) =>
    policyErrors(sidecar, `spec.containers[${String(index)}].resourcesPolicy`),
  );
  return [...initErrors, ...containerErrors];
}
