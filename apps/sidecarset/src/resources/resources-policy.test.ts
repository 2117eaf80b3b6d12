import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';

import { policyResources, ResourcesPolicyError } from './resources-policy.ts';

const pod: Pod = {
  metadata: { name: 'p' },
  spec: {
    initContainers: [
      {
        name: 'native',
        image: 'proxy',
        restartPolicy: 'Always',
        resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '64Mi' } },
      },
      { name: 'setup', image: 'init', resources: { limits: { cpu: '8', memory: '8Gi' } } },
    ],
    containers: [
      {
        name: 'app',
        image: 'nginx',
        resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '512Mi' } },
      },
      {
        name: 'app-worker',
        image: 'worker',
        resources: { limits: { cpu: '2', memory: '512Mi' }, requests: { cpu: '1' } },
      },
      { name: 'envoy', image: 'envoy', resources: { limits: { cpu: '4', memory: '4Gi' } } },
    ],
  },
};
const sidecars = new Set(['envoy']);
const expr = {
  limits: { cpu: 'cpu*50%', memory: 'memory' },
  requests: { cpu: 'max(cpu*10%, 50m)', memory: 'memory + 32Mi' },
};

describe('policyResources (OpenKruise applyResourcesPolicy)', () => {
  it('sums the targets (native sidecars and containers, not init containers nor SidecarSet sidecars)', () => {
    expect(
      policyResources(
        pod,
        { targetContainersMode: 'sum', targetContainersNameRegex: '.*', resourcesExpr: expr },
        sidecars,
      ),
    ).toEqual({
      limits: { cpu: '1750m', memory: '1792Mi' },
      requests: { cpu: '160m', memory: '608Mi' },
    });
  });

  it('takes the largest of the targets the regex matches anywhere in the name', () => {
    expect(
      policyResources(
        pod,
        { targetContainersMode: 'max', targetContainersNameRegex: 'app', resourcesExpr: expr },
        sidecars,
      ),
    ).toEqual({
      limits: { cpu: '1', memory: '1Gi' },
      requests: { cpu: '100m', memory: '544Mi' },
    });
  });

  it('leaves a limit unset when a target has none, and counts a missing request as 0', () => {
    const unlimited: Pod = {
      spec: {
        containers: [
          { name: 'app', image: 'nginx', resources: { limits: { cpu: '1' } } },
          { name: 'other', image: 'x' },
        ],
      },
    };
    expect(
      policyResources(
        unlimited,
        { targetContainersMode: 'sum', targetContainersNameRegex: '.*', resourcesExpr: expr },
        new Set(),
      ),
    ).toEqual({ requests: { cpu: '50m', memory: '32Mi' } });
  });

  it('refuses a pod without a target container, and an expression it cannot evaluate', () => {
    expect(() =>
      policyResources(
        pod,
        { targetContainersMode: 'sum', targetContainersNameRegex: '^db$', resourcesExpr: expr },
        sidecars,
      ),
    ).toThrow(new ResourcesPolicyError('no containers match the regex pattern "^db$"'));
    expect(() =>
      policyResources(
        pod,
        {
          targetContainersMode: 'sum',
          targetContainersNameRegex: '.*',
          resourcesExpr: { limits: { cpu: 'cpu * cpu' } },
        },
        sidecars,
      ),
    ).toThrow(ResourcesPolicyError);
  });
});
