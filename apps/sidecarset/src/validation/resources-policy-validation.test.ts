import { describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';

import { resourcesPolicyErrors } from './resources-policy-validation.ts';

function set(spec: Record<string, unknown>) {
  return sidecarSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 's' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  });
}

const policy = (extra: Record<string, unknown> = {}) => ({
  targetContainersMode: 'sum',
  resourcesExpr: { limits: { cpu: 'cpu*50%' } },
  ...extra,
});
const messages = (spec: Record<string, unknown>) =>
  resourcesPolicyErrors(set(spec)).map((error) => `${error.field}: ${error.message}`);

describe('resourcesPolicyErrors (OpenKruise validateResourcesPolicy)', () => {
  it('accepts a valid policy on a container and on a native sidecar', () => {
    expect(
      messages({
        containers: [{ name: 'c', image: 'x', resourcesPolicy: policy() }],
        initContainers: [{ name: 'n', image: 'x', restartPolicy: 'Always', resourcesPolicy: policy() }],
      }),
    ).toEqual([]);
  });

  it.each([
    [
      'with resources',
      { containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: '1' } }, resourcesPolicy: policy() }] },
      'spec.containers[0].resourcesPolicy: Invalid value: {"targetContainersMode":"sum","targetContainersNameRegex":".*","resourcesExpr":{"limits":{"cpu":"cpu*50%"}}}: resourcesPolicy and resources cannot be configured together',
    ],
    [
      'on a plain init container',
      { initContainers: [{ name: 'i', image: 'x', resourcesPolicy: policy() }] },
      'resourcesPolicy is only supported for containers with RestartPolicy Always',
    ],
    [
      'an empty regex',
      { containers: [{ name: 'c', image: 'x', resourcesPolicy: policy({ targetContainersNameRegex: '' }) }] },
      'spec.containers[0].resourcesPolicy.targetContainersNameRegex: Required value: invalid empty regex',
    ],
    [
      'a regex that does not compile',
      { containers: [{ name: 'c', image: 'x', resourcesPolicy: policy({ targetContainersNameRegex: '(' }) }] },
      'invalid regex pattern',
    ],
    [
      'no limits nor requests',
      { containers: [{ name: 'c', image: 'x', resourcesPolicy: policy({ resourcesExpr: {} }) }] },
      'at least one of limits or requests must be configured',
    ],
    [
      'an expression that does not evaluate',
      {
        containers: [
          {
            name: 'c',
            image: 'x',
            resourcesPolicy: policy({ resourcesExpr: { requests: { memory: 'max(memory)' } } }),
          },
        ],
      },
      'spec.containers[0].resourcesPolicy.resourcesExpr.requests.memory: Invalid value: "max(memory)": invalid expression: max function requires exactly 2 arguments, got 1',
    ],
  ])('refuses %s', (_name, spec, message) => {
    expect(messages(spec).join('\n')).toContain(message);
  });
});
