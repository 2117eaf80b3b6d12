/**
 * The CloneSets of the admission loop: no replicas, so that no pod is made and a create costs the
 * API server's admission and storage alone; a name and labels of their own, as separate workloads
 * have (the webhook's dry-run pod takes its name from the CloneSet's, so every create misses the
 * webhook's cache of verdicts, as a new workload in a cluster does).
 */
import type { Workload } from '../measure/workloads.ts';

export const LOOP_IMAGE = 'nginx:1.25';
/** A container name the API server refuses in a pod (not a DNS label): only the webhook sees it in a CloneSet. */
export const BAD_CONTAINER_NAME = 'Bad_Name';

/** A CloneSet of 0 replicas with one container. */
export function loopCloneSet(name: string, namespace: string, containerName = 'main'): Workload {
  const labels = { app: name };
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, namespace },
    spec: {
      replicas: 0,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: containerName, image: LOOP_IMAGE }] } },
    },
  };
}

/** The loop's `index`-th name: zero-padded, so that the names sort in creation order. */
export function loopName(prefix: string, index: number): string {
  return `${prefix}-${String(index).padStart(5, '0')}`;
}
