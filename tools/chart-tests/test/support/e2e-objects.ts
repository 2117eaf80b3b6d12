/** Workloads of the chart's end-to-end tests, as a user would write them (OpenKruise's documented shapes). */
import type { V1Pod } from '@kubernetes/client-node';

type Json = Record<string, unknown>;

export function apiGroup(version: string): { readonly group: string; readonly version: string } {
  return { group: 'apps.kruise.io', version };
}

const pod = (app: string, containerName = 'main'): Json => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: containerName, image: 'nginx:1.27' }] },
});

export function cloneSet(name: string, options: { readonly replicas: number; readonly containerName?: string }): Json {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name },
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: { app: name } },
      template: pod(name, options.containerName),
      updateStrategy: { type: 'InPlaceIfPossible' },
    },
  };
}

export function statefulSet(name: string, options: { readonly replicas: number }): Json {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      replicas: options.replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: pod(name),
      reserveOrdinals: [5],
    },
  };
}

export function sidecarSet(name: string, selectorValue: string): Json {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { 'e2e.kruise-ts.io/sidecar': selectorValue } },
      containers: [{ name, image: 'busybox:1.36', command: ['sleep', '999999'] }],
    },
  };
}

export function podOutsideChart(name: string, sidecarSelectorValue: string): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { 'e2e.kruise-ts.io/sidecar': sidecarSelectorValue } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
  };
}

export function broadcastJob(name: string): Json {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name },
    spec: {
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'pi', image: 'perl:5.34', command: ['perl', '-e', 'print 1'] }],
        },
      },
      completionPolicy: { type: 'Never' },
    },
  };
}
