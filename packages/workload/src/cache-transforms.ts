/**
 * What the workload controllers' caches keep of pods and nodes (cache transforms, registered with
 * `InformerFactory.setTransform`).
 *
 * Pods: what the workload controllers' pod cache keeps of a pod. A cached pod is read, never written back
 * whole (every pod write is a patch, a create or a delete), so fields no workload controller reads
 * can be left out of memory; at 10,000 pods they are a large part of the controller's heap.
 *
 * Left out (written by admission, the scheduler or the kubelet, read by none of our controllers):
 * - spec: tolerations, dnsPolicy, schedulerName, securityContext, enableServiceLinks,
 *   preemptionPolicy, priority, serviceAccount(Name), restartPolicy; the ServiceAccount token volume
 *   (`kube-api-access-*`) and its mounts;
 * - containers and init containers: terminationMessagePath/Policy, imagePullPolicy;
 * - status: hostIP(s), podIP(s), qosClass, startTime, the conditions' lastProbeTime, and the container
 *   statuses' lastState, volumeMounts, allocatedResources(Status), user and stopSignal.
 *
 * A controller that needs one of these must read the pod from the API server or stop dropping it
 * here; `CACHE_DROPPED_POD_FIELDS` lists them for that check.
 *
 * What is kept shares its repeated strings (`intern.ts`): label and annotation values, owners,
 * condition types and times, images, node names. With the managedFields dropped without `delete`
 * (controller-runtime), a cached pod of the benchmark takes 2.1 KB of heap instead of 3.8 KB
 * (`test/pod-cache-heap.ts`).
 */
import type { Node, Pod } from '@kruise-ts/api';
import { applyFieldFilter, compileFieldFilter } from '@kruise-ts/kube-protobuf';
import type { FieldFilter } from '@kruise-ts/kube-protobuf';

import { intern, internValues } from './intern.ts';

type PodMetadata = NonNullable<Pod['metadata']>;
type OwnerReference = NonNullable<PodMetadata['ownerReferences']>[number];
type PodSpec = NonNullable<Pod['spec']>;
type PodStatus = NonNullable<Pod['status']>;
type Container = PodSpec['containers'][number];
type ContainerStatus = NonNullable<PodStatus['containerStatuses']>[number];

/**
 * The dotted paths of the fields {@link trimPodForCache} drops whole (`[]` marks list items): the
 * protobuf decoder skips them by their length ({@link POD_CACHE_FIELD_FILTER}), and the same filter
 * drops them from a pod read as JSON, so that both give the same cached pod.
 */
export const CACHE_DROPPED_POD_FIELDS: readonly string[] = [
  'metadata.managedFields',
  'spec.tolerations',
  'spec.dnsPolicy',
  'spec.schedulerName',
  'spec.securityContext',
  'spec.enableServiceLinks',
  'spec.preemptionPolicy',
  'spec.priority',
  'spec.serviceAccount',
  'spec.serviceAccountName',
  'spec.restartPolicy',
  ...['containers', 'initContainers'].flatMap((list) =>
    ['terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy'].map((name) => `spec.${list}[].${name}`),
  ),
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
  'status.qosClass',
  'status.startTime',
  'status.conditions[].lastProbeTime',
  ...['containerStatuses', 'initContainerStatuses'].flatMap((list) =>
    ['lastState', 'volumeMounts', 'allocatedResources', 'allocatedResourcesStatus', 'user', 'stopSignal'].map(
      (name) => `status.${list}[].${name}`,
    ),
  ),
];

/**
 * What {@link trimPodForCache} drops by the item's name, not whole fields (no field filter can: the
 * transform does it after decoding): the ServiceAccount token volume and its mounts.
 */
export const CACHE_DROPPED_POD_ITEMS: readonly string[] = [
  'spec.volumes[kube-api-access-*]',
  'spec.containers[].volumeMounts[kube-api-access-*]',
  'spec.initContainers[].volumeMounts[kube-api-access-*]',
];

/** {@link CACHE_DROPPED_POD_FIELDS} compiled: what the protobuf decoder skips of a pod for the cache. */
export const POD_CACHE_FIELD_FILTER: FieldFilter = compileFieldFilter('Pod', CACHE_DROPPED_POD_FIELDS);

/** The projected volume the ServiceAccount admission plugin adds to every pod. */
const TOKEN_VOLUME_PREFIX = 'kube-api-access-';

function isTokenVolume(volume: { readonly name: string }): boolean {
  return volume.name.startsWith(TOKEN_VOLUME_PREFIX);
}

function trimContainer(container: Container): Container {
  const { volumeMounts, ...rest } = container;
  const kept = typeof rest.image === 'string' ? { ...rest, image: intern(rest.image) } : rest;
  const mounts = Array.isArray(volumeMounts) ? volumeMounts.filter((mount) => !isTokenVolume(mount)) : volumeMounts;
  return mounts === undefined || mounts.length === 0 ? kept : { ...kept, volumeMounts: mounts };
}

function trimSpec(spec: PodSpec): PodSpec {
  const { volumes, containers, initContainers, nodeName, readinessGates, ...kept } = spec;
  const userVolumes = Array.isArray(volumes) ? volumes.filter((volume) => !isTokenVolume(volume)) : volumes;
  return {
    ...kept,
    ...(typeof nodeName === 'string' ? { nodeName: intern(nodeName) } : {}),
    ...(Array.isArray(readinessGates)
      ? { readinessGates: readinessGates.map((gate) => ({ ...gate, conditionType: intern(gate.conditionType) })) }
      : {}),
    containers: mapList(containers, trimContainer),
    ...(initContainers === undefined ? {} : { initContainers: mapList(initContainers, trimContainer) }),
    ...(userVolumes === undefined || userVolumes.length === 0 ? {} : { volumes: userVolumes }),
  };
}

function trimContainerStatus(status: ContainerStatus): ContainerStatus {
  const { image, imageID, state, ...kept } = status;
  return {
    ...kept,
    image: intern(image),
    imageID: intern(imageID),
    ...(state === undefined ? {} : { state: internState(state) }),
  };
}

/** The state's timestamps: pods started in the same second share them. */
function internState(state: NonNullable<ContainerStatus['state']>): NonNullable<ContainerStatus['state']> {
  const { running, ...kept } = state;
  if (running?.startedAt === undefined) {
    return running === undefined ? kept : { ...kept, running };
  }
  return { ...kept, running: { ...running, startedAt: intern(running.startedAt) } };
}

function trimCondition(
  condition: NonNullable<PodStatus['conditions']>[number],
): NonNullable<PodStatus['conditions']>[number] {
  const { type, status, lastTransitionTime, ...kept } = condition;
  return {
    type: intern(type),
    status: intern(status),
    ...(lastTransitionTime === undefined ? {} : { lastTransitionTime: intern(lastTransitionTime) }),
    ...kept,
  };
}

function trimStatus(status: PodStatus): PodStatus {
  const { conditions, containerStatuses, initContainerStatuses, ...kept } = status;
  return {
    ...kept,
    ...(conditions === undefined ? {} : { conditions: mapList(conditions, trimCondition) }),
    ...(containerStatuses === undefined ? {} : { containerStatuses: mapList(containerStatuses, trimContainerStatus) }),
    ...(initContainerStatuses === undefined
      ? {}
      : { initContainerStatuses: mapList(initContainerStatuses, trimContainerStatus) }),
  };
}

function internOwner(owner: OwnerReference): OwnerReference {
  return {
    ...owner,
    apiVersion: intern(owner.apiVersion),
    kind: intern(owner.kind),
    name: intern(owner.name),
    uid: intern(owner.uid),
  };
}

/** Metadata whole, its repeated values shared: labels and annotations, owners, the creation second. */
function internMetadata(metadata: PodMetadata): PodMetadata {
  const { labels, annotations, ownerReferences, creationTimestamp, generateName, ...kept } = metadata;
  const labelValues = internValues(labels);
  const annotationValues = internValues(annotations);
  return {
    ...kept,
    ...(labelValues === undefined ? {} : { labels: labelValues }),
    ...(annotationValues === undefined ? {} : { annotations: annotationValues }),
    ...(ownerReferences === undefined ? {} : { ownerReferences: ownerReferences.map(internOwner) }),
    ...(creationTimestamp === undefined ? {} : { creationTimestamp: intern(creationTimestamp) }),
    ...(generateName === undefined ? {} : { generateName: intern(generateName) }),
  };
}

/** The items mapped; a null list (Go's nil without omitempty, `containers: null` of an empty pod) stays null. */
function mapList<T>(list: T[], map: (item: T) => T): T[] {
  return Array.isArray(list) ? list.map(map) : list;
}

/**
 * The pod as the workload controllers cache it (a cache transform: the input is a freshly decoded
 * object that nothing else holds; a new object is returned all the same): the fields of
 * {@link CACHE_DROPPED_POD_FIELDS} dropped by {@link POD_CACHE_FIELD_FILTER} (nothing to drop when the
 * pod was decoded from protobuf with it), then the token volume dropped and the repeated strings shared.
 */
export function trimPodForCache(input: Pod): Pod {
  const pod = applyFieldFilter(input, POD_CACHE_FIELD_FILTER);
  return {
    ...pod,
    ...(pod.metadata === undefined ? {} : { metadata: internMetadata(pod.metadata) }),
    ...(pod.spec === undefined ? {} : { spec: trimSpec(pod.spec) }),
    ...(pod.status === undefined ? {} : { status: trimStatus(pod.status) }),
  };
}

/** The fields of a node {@link trimNodeForCache} keeps (all others are dropped, and an empty spec or status). */
export const CACHE_KEPT_NODE_FIELDS: readonly string[] = [
  'metadata.name',
  'metadata.uid',
  'metadata.resourceVersion',
  'metadata.labels',
  'metadata.deletionTimestamp',
  'spec.unschedulable',
  'spec.taints',
  'status.allocatable',
];

/** {@link CACHE_KEPT_NODE_FIELDS} compiled: the protobuf decoder skips all other fields of a node for the cache. */
export const NODE_CACHE_FIELD_FILTER: FieldFilter = compileFieldFilter('Node', CACHE_KEPT_NODE_FIELDS, 'keep');

/**
 * The node as the workload controllers cache it: its name and labels (the topology spread ranker
 * groups pods by their node's labels), and what decides whether a pod fits it (BroadcastJob: taints,
 * `unschedulable`, allocatable resources); not the rest of spec and status, whose image list alone is
 * often several KiB per node. One transform for every controller of a process, since they share the
 * node cache.
 */
export function trimNodeForCache(input: Node): Node {
  const node = applyFieldFilter(input, NODE_CACHE_FIELD_FILTER);
  const metadata = node.metadata ?? {};
  const spec = definedOnly({ unschedulable: node.spec?.unschedulable, taints: node.spec?.taints });
  const status = definedOnly({ allocatable: node.status?.allocatable });
  return {
    ...definedOnly({ apiVersion: node.apiVersion, kind: node.kind }),
    metadata: definedOnly({
      name: metadata.name,
      uid: metadata.uid,
      resourceVersion: metadata.resourceVersion,
      labels: metadata.labels,
      deletionTimestamp: metadata.deletionTimestamp,
    }),
    ...(Object.keys(spec).length === 0 ? {} : { spec }),
    ...(Object.keys(status).length === 0 ? {} : { status }),
  };
}

/** The object without its undefined properties (exactOptionalPropertyTypes: absent, not undefined). */
function definedOnly<T extends Record<string, unknown>>(object: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
