/**
 * The table of issue 20: workload templates that `kubectl create --dry-run=server` must refuse, each
 * with the field path the refusal must name, and templates from the OpenKruise and Kubernetes
 * documentation it must accept. Most refusals come from the API server's own pod (or claim)
 * validation through the validation webhooks' dry runs; the rows marked `cel` are the CRD's rules,
 * which hold with no webhook at all.
 */

type Json = Record<string, unknown>;

export type WorkloadKind = 'CloneSet' | 'StatefulSet' | 'BroadcastJob';

export interface InvalidCase {
  readonly name: string;
  readonly kind: WorkloadKind;
  /** The object's spec changes: the pod spec (merged into the base template's), template labels/annotations, claim templates. */
  readonly pod?: Json;
  readonly container?: Json;
  readonly metadata?: Json;
  readonly claims?: readonly Json[];
  /** The field path the refusal names. */
  readonly field: string;
  /** Refused by the CRD's CEL rules rather than the webhook. */
  readonly cel?: boolean;
}

export interface ValidCase {
  readonly name: string;
  readonly kind: WorkloadKind;
  readonly pod?: Json;
  readonly container?: Json;
  readonly metadata?: Json;
  readonly claims?: readonly Json[];
  /** Where it comes from. */
  readonly source: string;
}

const NGINX = { name: 'main', image: 'nginx:1.27' };

/** The workload a case is laid over: one container, selector and template label `app: <name>`. */
export function workloadOf(
  kind: WorkloadKind,
  name: string,
  input: Pick<InvalidCase, 'pod' | 'container' | 'metadata' | 'claims'>,
): Json {
  const labels = { app: name, ...(input.metadata?.['labels'] as Json | undefined) };
  const metadata = { ...input.metadata, labels };
  const podSpec = {
    containers: [{ ...NGINX, ...input.container }],
    ...(kind === 'BroadcastJob' ? { restartPolicy: 'Never' } : {}),
    ...input.pod,
  };
  const template = { metadata, spec: podSpec };
  const claims = input.claims === undefined ? {} : { volumeClaimTemplates: input.claims };
  if (kind === 'BroadcastJob') {
    return { apiVersion: 'apps.kruise.io/v1alpha1', kind, metadata: { name }, spec: { template } };
  }
  const common = { replicas: 1, selector: { matchLabels: { app: name } }, template, ...claims };
  return kind === 'CloneSet'
    ? { apiVersion: 'apps.kruise.io/v1alpha1', kind, metadata: { name }, spec: common }
    : { apiVersion: 'apps.kruise.io/v1beta1', kind, metadata: { name }, spec: { serviceName: name, ...common } };
}

const claim = (spec: Json, name = 'data'): Json => ({ metadata: { name }, spec });
const STORAGE = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };

export const INVALID_CASES: readonly InvalidCase[] = [
  // Containers
  {
    name: 'container-name-capitals',
    kind: 'CloneSet',
    container: { name: 'Main' },
    field: 'spec.template.spec.containers[0].name',
  },
  {
    name: 'container-name-underscore',
    kind: 'CloneSet',
    container: { name: 'my_app' },
    field: 'spec.template.spec.containers[0].name',
  },
  {
    name: 'container-duplicate-names',
    kind: 'CloneSet',
    pod: { containers: [NGINX, NGINX] },
    field: 'spec.template.spec.containers[1].name',
  },
  {
    name: 'container-no-image',
    kind: 'CloneSet',
    pod: { containers: [{ name: 'main' }] },
    field: 'spec.template.spec.containers[0].image',
  },
  {
    name: 'pull-policy-unknown',
    kind: 'CloneSet',
    container: { imagePullPolicy: 'Sometimes' },
    field: 'spec.template.spec.containers[0].imagePullPolicy',
  },
  {
    name: 'init-container-duplicates-container',
    kind: 'CloneSet',
    pod: { initContainers: [{ name: 'main', image: 'busybox:1.36' }] },
    field: 'spec.template.spec.initContainers[0].name',
  },
  // Ports
  {
    name: 'port-out-of-range',
    kind: 'CloneSet',
    container: { ports: [{ containerPort: 70_000 }] },
    field: 'spec.template.spec.containers[0].ports[0].containerPort',
  },
  {
    name: 'port-zero',
    kind: 'CloneSet',
    container: { ports: [{ containerPort: 0 }] },
    field: 'spec.template.spec.containers[0].ports[0].containerPort',
  },
  {
    name: 'host-port-out-of-range',
    kind: 'CloneSet',
    container: { ports: [{ containerPort: 80, hostPort: 70_000 }] },
    field: 'spec.template.spec.containers[0].ports[0].hostPort',
  },
  {
    name: 'port-protocol-unknown',
    kind: 'CloneSet',
    container: { ports: [{ containerPort: 80, protocol: 'HTTP' }] },
    field: 'spec.template.spec.containers[0].ports[0].protocol',
  },
  {
    name: 'port-names-duplicate',
    kind: 'CloneSet',
    container: {
      ports: [
        { containerPort: 80, name: 'web' },
        { containerPort: 81, name: 'web' },
      ],
    },
    field: 'spec.template.spec.containers[0].ports[1].name',
  },
  {
    name: 'port-name-too-long',
    kind: 'CloneSet',
    container: { ports: [{ containerPort: 80, name: 'this-name-is-too-long' }] },
    field: 'spec.template.spec.containers[0].ports[0].name',
  },
  // Quantities
  {
    name: 'cpu-request-above-limit',
    kind: 'CloneSet',
    container: { resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } },
    field: 'spec.template.spec.containers[0].resources.requests',
  },
  {
    name: 'memory-negative',
    kind: 'CloneSet',
    container: { resources: { requests: { memory: '-1Gi' } } },
    field: 'spec.template.spec.containers[0].resources.requests[memory]',
  },
  {
    name: 'resource-name-unknown',
    kind: 'CloneSet',
    container: { resources: { limits: { gpus: '1' } } },
    field: 'spec.template.spec.containers[0].resources.limits[gpus]',
  },
  // Env
  {
    name: 'env-name-with-equals',
    kind: 'CloneSet',
    container: { env: [{ name: 'A=B', value: 'x' }] },
    field: 'spec.template.spec.containers[0].env[0].name',
  },
  {
    name: 'env-value-and-value-from',
    kind: 'CloneSet',
    container: { env: [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] },
    field: 'spec.template.spec.containers[0].env[0].valueFrom',
  },
  {
    name: 'env-field-path-unknown',
    kind: 'CloneSet',
    container: { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.colour' } } }] },
    field: 'spec.template.spec.containers[0].env[0].valueFrom.fieldRef.fieldPath',
  },
  // Probes
  {
    name: 'probe-without-handler',
    kind: 'CloneSet',
    container: { livenessProbe: { periodSeconds: 5 } },
    field: 'spec.template.spec.containers[0].livenessProbe',
  },
  {
    name: 'probe-negative-period',
    kind: 'CloneSet',
    container: { livenessProbe: { exec: { command: ['true'] }, periodSeconds: -1 } },
    field: 'spec.template.spec.containers[0].livenessProbe.periodSeconds',
  },
  {
    name: 'probe-port-zero',
    kind: 'CloneSet',
    container: { readinessProbe: { httpGet: { port: 0 } } },
    field: 'spec.template.spec.containers[0].readinessProbe.httpGet.port',
  },
  {
    name: 'probe-two-handlers',
    kind: 'CloneSet',
    container: { livenessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 } } },
    field: 'spec.template.spec.containers[0].livenessProbe.tcpSocket',
  },
  // securityContext
  {
    name: 'run-as-user-negative',
    kind: 'CloneSet',
    container: { securityContext: { runAsUser: -1 } },
    field: 'spec.template.spec.containers[0].securityContext.runAsUser',
  },
  {
    name: 'privileged-without-escalation',
    kind: 'CloneSet',
    container: { securityContext: { privileged: true, allowPrivilegeEscalation: false } },
    field: 'spec.template.spec.containers[0].securityContext',
  },
  {
    name: 'pod-fs-group-negative',
    kind: 'CloneSet',
    pod: { securityContext: { fsGroup: -1 } },
    field: 'spec.template.spec.securityContext.fsGroup',
  },
  // Volumes
  {
    name: 'volume-name-capitals',
    kind: 'CloneSet',
    pod: { volumes: [{ name: 'Data', emptyDir: {} }] },
    field: 'spec.template.spec.volumes[0].name',
  },
  {
    name: 'volume-names-duplicate',
    kind: 'CloneSet',
    pod: {
      volumes: [
        { name: 'data', emptyDir: {} },
        { name: 'data', emptyDir: {} },
      ],
    },
    field: 'spec.template.spec.volumes[1].name',
  },
  {
    name: 'mount-of-missing-volume',
    kind: 'CloneSet',
    container: { volumeMounts: [{ name: 'missing', mountPath: '/data' }] },
    field: 'spec.template.spec.containers[0].volumeMounts[0].name',
  },
  {
    name: 'mount-without-path',
    kind: 'CloneSet',
    container: { volumeMounts: [{ name: 'data', mountPath: '' }] },
    pod: { volumes: [{ name: 'data', emptyDir: {} }] },
    field: 'spec.template.spec.containers[0].volumeMounts[0].mountPath',
  },
  {
    name: 'host-path-empty',
    kind: 'CloneSet',
    pod: { volumes: [{ name: 'host', hostPath: { path: '' } }] },
    field: 'spec.template.spec.volumes[0].hostPath.path',
  },
  // Labels, annotations and the rest of the pod spec
  {
    name: 'label-value-with-space',
    kind: 'CloneSet',
    metadata: { labels: { tier: 'a b' } },
    field: 'spec.template.metadata.labels',
  },
  {
    name: 'annotation-key-invalid',
    kind: 'CloneSet',
    metadata: { annotations: { 'bad key': 'x' } },
    field: 'spec.template.metadata.annotations',
  },
  {
    name: 'dns-policy-unknown',
    kind: 'CloneSet',
    pod: { dnsPolicy: 'Sometimes' },
    field: 'spec.template.spec.dnsPolicy',
  },
  // Not a boolean: the API server cannot decode the pod (400), and its decoder names the field.
  {
    name: 'service-links-not-boolean',
    kind: 'CloneSet',
    pod: { enableServiceLinks: 'yes' },
    field: 'spec.template.spec.enableServiceLinks',
  },
  {
    name: 'node-selector-key-invalid',
    kind: 'CloneSet',
    pod: { nodeSelector: { 'bad key!': 'x' } },
    field: 'spec.template.spec.nodeSelector',
  },
  {
    name: 'toleration-operator-unknown',
    kind: 'CloneSet',
    pod: { tolerations: [{ key: 'k', operator: 'Maybe', value: 'v' }] },
    field: 'spec.template.spec.tolerations[0].operator',
  },
  { name: 'hostname-invalid', kind: 'CloneSet', pod: { hostname: 'Bad_Host' }, field: 'spec.template.spec.hostname' },
  // Claim templates
  {
    name: 'claim-without-storage',
    kind: 'CloneSet',
    claims: [claim({ accessModes: ['ReadWriteOnce'] })],
    field: 'spec.volumeClaimTemplates[0].spec.resources[storage]',
  },
  {
    name: 'claim-access-mode-unknown',
    kind: 'CloneSet',
    claims: [claim({ ...STORAGE, accessModes: ['ReadWriteSometimes'] })],
    field: 'spec.volumeClaimTemplates[0].spec.accessModes',
  },
  {
    name: 'claim-without-access-modes',
    kind: 'CloneSet',
    claims: [claim({ resources: STORAGE.resources })],
    field: 'spec.volumeClaimTemplates[0].spec.accessModes',
  },
  {
    name: 'claim-name-capitals',
    kind: 'CloneSet',
    claims: [claim(STORAGE, 'Data')],
    field: 'spec.volumeClaimTemplates[0].metadata.name',
  },
  // Advanced StatefulSet
  {
    name: 'asts-container-name-capitals',
    kind: 'StatefulSet',
    container: { name: 'Main' },
    field: 'spec.template.spec.containers[0].name',
  },
  {
    name: 'asts-port-out-of-range',
    kind: 'StatefulSet',
    container: { ports: [{ containerPort: 70_000 }] },
    field: 'spec.template.spec.containers[0].ports[0].containerPort',
  },
  {
    name: 'asts-env-field-path-unknown',
    kind: 'StatefulSet',
    container: { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.colour' } } }] },
    field: 'spec.template.spec.containers[0].env[0].valueFrom.fieldRef.fieldPath',
  },
  {
    name: 'asts-probe-without-handler',
    kind: 'StatefulSet',
    container: { readinessProbe: { periodSeconds: 5 } },
    field: 'spec.template.spec.containers[0].readinessProbe',
  },
  {
    name: 'asts-claim-without-storage',
    kind: 'StatefulSet',
    claims: [claim({ accessModes: ['ReadWriteOnce'] })],
    field: 'spec.volumeClaimTemplates[0].spec.resources[storage]',
  },
  {
    name: 'asts-mount-of-missing-volume',
    kind: 'StatefulSet',
    container: { volumeMounts: [{ name: 'missing', mountPath: '/data' }] },
    field: 'spec.template.spec.containers[0].volumeMounts[0].name',
  },
  // BroadcastJob
  {
    name: 'bcj-container-name-capitals',
    kind: 'BroadcastJob',
    container: { name: 'Main' },
    field: 'spec.template.spec.containers[0].name',
  },
  {
    name: 'bcj-pull-policy-unknown',
    kind: 'BroadcastJob',
    container: { imagePullPolicy: 'Sometimes' },
    field: 'spec.template.spec.containers[0].imagePullPolicy',
  },
  {
    name: 'bcj-duplicate-containers',
    kind: 'BroadcastJob',
    pod: { containers: [NGINX, NGINX], restartPolicy: 'Never' },
    field: 'spec.template.spec.containers[1].name',
  },
  {
    name: 'bcj-cpu-request-above-limit',
    kind: 'BroadcastJob',
    container: { resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } },
    field: 'spec.template.spec.containers[0].resources.requests',
  },
  {
    name: 'bcj-volume-name-capitals',
    kind: 'BroadcastJob',
    pod: { restartPolicy: 'Never', volumes: [{ name: 'Data', emptyDir: {} }] },
    field: 'spec.template.spec.volumes[0].name',
  },
  // The CRDs' own rules (CEL): refused with or without a webhook.
  {
    name: 'reserved-label-specified-delete',
    kind: 'CloneSet',
    metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } },
    field: 'spec.template.metadata.labels',
    cel: true,
  },
  {
    name: 'restart-policy-never',
    kind: 'CloneSet',
    pod: { restartPolicy: 'Never' },
    field: 'spec.template.spec.restartPolicy',
    cel: true,
  },
  {
    name: 'asts-reserved-label-pod-name',
    kind: 'StatefulSet',
    metadata: { labels: { 'statefulset.kubernetes.io/pod-name': 'x' } },
    field: 'spec.template.metadata.labels',
    cel: true,
  },
  {
    name: 'bcj-restart-policy-always',
    kind: 'BroadcastJob',
    pod: { restartPolicy: 'Always' },
    field: 'spec.template.spec.restartPolicy',
    cel: true,
  },
];

export const VALID_CASES: readonly ValidCase[] = [
  {
    name: 'openkruise-cloneset-sample',
    kind: 'CloneSet',
    container: { name: 'nginx', image: 'nginx:alpine' },
    source: 'OpenKruise CloneSet docs: the sample',
  },
  {
    name: 'openkruise-cloneset-pvc',
    kind: 'CloneSet',
    container: { volumeMounts: [{ name: 'data-vol', mountPath: '/usr/share/nginx/html' }] },
    claims: [claim(STORAGE, 'data-vol')],
    source: 'OpenKruise CloneSet docs: volumeClaimTemplates',
  },
  {
    name: 'openkruise-cloneset-readiness-gate',
    kind: 'CloneSet',
    pod: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
    source: 'OpenKruise CloneSet docs: in-place update readiness gate',
  },
  {
    name: 'openkruise-cloneset-lifecycle-labels',
    kind: 'CloneSet',
    metadata: { labels: { 'example.io/block-deleting': 'true' } },
    source: 'OpenKruise CloneSet docs: lifecycle hook label',
  },
  {
    name: 'openkruise-asts-sample',
    kind: 'StatefulSet',
    container: { name: 'nginx', image: 'nginx:alpine', ports: [{ containerPort: 80, name: 'web' }] },
    source: 'OpenKruise Advanced StatefulSet docs',
  },
  {
    name: 'openkruise-asts-claims',
    kind: 'StatefulSet',
    container: { volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }] },
    claims: [claim(STORAGE, 'www')],
    source: 'OpenKruise Advanced StatefulSet docs: volumeClaimTemplates',
  },
  {
    name: 'openkruise-bcj-pi',
    kind: 'BroadcastJob',
    pod: {
      containers: [{ name: 'pi', image: 'perl:5.34', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] }],
      restartPolicy: 'Never',
    },
    source: 'OpenKruise BroadcastJob docs: pi',
  },
  {
    name: 'openkruise-bcj-on-failure',
    kind: 'BroadcastJob',
    pod: {
      containers: [{ name: 'guestbook', image: 'openkruise/guestbook:v3', command: ['echo', 'started'] }],
      restartPolicy: 'OnFailure',
    },
    source: 'OpenKruise BroadcastJob docs',
  },
  {
    name: 'k8s-ports-and-probes',
    kind: 'CloneSet',
    container: {
      ports: [{ containerPort: 80, name: 'http' }],
      livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 3, periodSeconds: 3 },
      readinessProbe: { tcpSocket: { port: 80 } },
    },
    source: 'Kubernetes docs: liveness and readiness probes',
  },
  {
    name: 'k8s-exec-and-grpc-probes',
    kind: 'CloneSet',
    container: {
      livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] } },
      startupProbe: { grpc: { port: 2379 }, failureThreshold: 30, periodSeconds: 10 },
    },
    source: 'Kubernetes docs: exec, gRPC and startup probes',
  },
  {
    name: 'k8s-env-from-fields',
    kind: 'CloneSet',
    container: {
      env: [
        { name: 'MY_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
        { name: 'MY_CPU_LIMIT', valueFrom: { resourceFieldRef: { containerName: 'main', resource: 'limits.cpu' } } },
      ],
    },
    source: 'Kubernetes docs: expose pod information through env',
  },
  {
    name: 'k8s-env-from-config-map',
    kind: 'CloneSet',
    container: {
      envFrom: [{ configMapRef: { name: 'special-config' } }],
      env: [{ name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { name: 'env-config', key: 'log_level' } } }],
    },
    source: 'Kubernetes docs: configure a pod to use a ConfigMap',
  },
  {
    name: 'k8s-resources',
    kind: 'CloneSet',
    container: { resources: { requests: { memory: '64Mi', cpu: '250m' }, limits: { memory: '128Mi', cpu: 0.5 } } },
    source: 'Kubernetes docs: resource management',
  },
  {
    name: 'k8s-security-context',
    kind: 'CloneSet',
    pod: {
      securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } },
    },
    container: {
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true },
    },
    source: 'Kubernetes docs: security context',
  },
  {
    name: 'k8s-init-containers',
    kind: 'CloneSet',
    pod: {
      initContainers: [
        {
          name: 'init-myservice',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'until nslookup myservice; do sleep 2; done'],
        },
      ],
    },
    source: 'Kubernetes docs: init containers',
  },
  {
    name: 'k8s-native-sidecar',
    kind: 'CloneSet',
    pod: {
      initContainers: [
        {
          name: 'logshipper',
          image: 'alpine:3',
          restartPolicy: 'Always',
          command: ['sh', '-c', 'tail -F /opt/logs.txt'],
        },
      ],
    },
    source: 'Kubernetes docs: sidecar containers',
  },
  {
    name: 'k8s-topology-spread',
    kind: 'CloneSet',
    pod: {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'k8s-topology-spread' } },
        },
      ],
    },
    source: 'Kubernetes docs: topology spread constraints',
  },
  {
    name: 'k8s-affinity',
    kind: 'CloneSet',
    pod: {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['antarctica-east1'] },
                ],
              },
            ],
          },
        },
      },
    },
    source: 'Kubernetes docs: node affinity',
  },
  {
    name: 'k8s-tolerations',
    kind: 'CloneSet',
    pod: { tolerations: [{ key: 'example-key', operator: 'Exists', effect: 'NoSchedule' }] },
    source: 'Kubernetes docs: taints and tolerations',
  },
  {
    name: 'k8s-projected-volume',
    kind: 'CloneSet',
    container: { volumeMounts: [{ name: 'all-in-one', mountPath: '/projected-volume', readOnly: true }] },
    pod: {
      volumes: [
        {
          name: 'all-in-one',
          projected: {
            sources: [
              { secret: { name: 'user' } },
              { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
              { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
            ],
          },
        },
      ],
    },
    source: 'Kubernetes docs: projected volumes',
  },
  {
    name: 'k8s-empty-dir-size-limit',
    kind: 'CloneSet',
    container: { volumeMounts: [{ name: 'cache-volume', mountPath: '/cache' }] },
    pod: { volumes: [{ name: 'cache-volume', emptyDir: { sizeLimit: '500Mi', medium: 'Memory' } }] },
    source: 'Kubernetes docs: emptyDir',
  },
  {
    name: 'k8s-config-map-volume',
    kind: 'StatefulSet',
    container: { volumeMounts: [{ name: 'config', mountPath: '/config' }] },
    pod: {
      volumes: [
        {
          name: 'config',
          configMap: { name: 'game-demo', items: [{ key: 'game.properties', path: 'game.properties' }] },
        },
      ],
    },
    source: 'Kubernetes docs: ConfigMap volume',
  },
  {
    name: 'k8s-host-aliases-dns',
    kind: 'BroadcastJob',
    pod: {
      restartPolicy: 'Never',
      hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local'] }],
      dnsPolicy: 'None',
      dnsConfig: { nameservers: ['192.0.2.1'], searches: ['ns1.svc.cluster-domain.example'] },
    },
    source: 'Kubernetes docs: host aliases and DNS config',
  },
];
