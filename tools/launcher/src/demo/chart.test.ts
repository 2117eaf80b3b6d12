import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { processNodePlacement } from '@kruise-ts/local-cluster';

import {
  ALL_APPS_GATES,
  CHART_DIRECTORY,
  chartValues,
  crashLoopOf,
  helmEnvironment,
  helmInstallArgs,
} from './chart.ts';

describe('the demo with --chart', () => {
  it('installs or upgrades the release kruise-ts in kruise-system, waiting up to 5 minutes, taking over CRDs the in-process demo applied', () => {
    expect(helmInstallArgs('/cache/demo/chart-values.yaml')).toEqual([
      'upgrade',
      '--install',
      'kruise-ts',
      CHART_DIRECTORY,
      '--namespace',
      'kruise-system',
      '--create-namespace',
      '-f',
      '/cache/demo/chart-values.yaml',
      '--take-ownership',
      '--force-conflicts',
      '--wait',
      '--timeout',
      '5m',
    ]);
    expect(CHART_DIRECTORY).toMatch(/\/charts\/kruise-ts$/);
  });

  it("turns every app on and places the chart's pods on the process kubelet's node", () => {
    const placement = processNodePlacement('kruise-ts-process-node');
    expect(chartValues(placement)).toEqual({
      featureGates: ALL_APPS_GATES,
      nodeSelector: placement.nodeSelector,
      tolerations: placement.tolerations,
    });
    expect(ALL_APPS_GATES).toBe('CloneSet=true,AdvancedStatefulSet=true,SidecarSet=true,BroadcastJob=true');
  });

  it("gives helm its own config, cache and data directories and the cluster's kubeconfig, never the user's", () => {
    const env = helmEnvironment('/cache/demo/helm', '/cache/clusters/demo/kubeconfig', {
      PATH: '/bin',
      KUBECONFIG: '/home/u/.kube/config',
      HELM_CONFIG_HOME: '/home/u/.config/helm',
    });
    expect(env).toEqual({
      PATH: '/bin',
      KUBECONFIG: '/cache/clusters/demo/kubeconfig',
      HELM_CONFIG_HOME: '/cache/demo/helm/config',
      HELM_CACHE_HOME: '/cache/demo/helm/cache',
      HELM_DATA_HOME: '/cache/demo/helm/data',
    });
  });
});

describe('a chart pod that keeps crashing', () => {
  const pod = (name: string, restartCount: number, reason?: string): V1Pod => ({
    metadata: { name },
    status: {
      containerStatuses: [
        {
          name: 'cloneset',
          image: 'kruise-ts:0.1.0',
          imageID: '',
          ready: false,
          restartCount,
          ...(reason === undefined ? {} : { lastState: { terminated: { exitCode: 1, reason } } }),
        },
      ],
    },
  });

  it('is found once a container has restarted twice, with how it last ended', () => {
    expect(crashLoopOf([pod('a', 0), pod('b', 1, 'Error')])).toBeUndefined();
    expect(crashLoopOf([pod('a', 0), pod('b', 2, 'Error')])).toEqual({
      pod: 'b',
      container: 'cloneset',
      restarts: 2,
      exit: 'exit code 1, Error',
    });
    expect(crashLoopOf([pod('c', 3)])).toEqual({
      pod: 'c',
      container: 'cloneset',
      restarts: 3,
      exit: 'how is unknown',
    });
  });
});
