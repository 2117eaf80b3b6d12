/**
 * Pod templates for the golden-vector test: each is given to OpenKruise's Go steps (test/golden-go) and
 * to revisionData; the raw data and hashes must match byte for byte. Templates are plain JSON values
 * (not typed) because several are deliberately odd: unknown fields, nulls, wrong-case keys.
 */

/** A named template, and whether Go's decoder rejects it. */
export interface GoldenTemplate {
  readonly name: string;
  readonly template: unknown;
  readonly goRejects?: true;
}

/** Text that JSON.stringify writes verbatim, for numbers JavaScript cannot hold exactly. */
const rawJson = (JSON as unknown as { rawJSON: (text: string) => unknown }).rawJSON;

const sampleContainer = { name: 'nginx', image: 'nginx:alpine' };

/** The defaults OpenKruise's CloneSet webhook leaves in a template (SetDefaultPodSpec, imagePullPolicy Always). */
const webhookDefaults = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  schedulerName: 'default-scheduler',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
};
const defaultedContainer = (container: Record<string, unknown>): Record<string, unknown> => ({
  imagePullPolicy: 'Always',
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  ...container,
});

export const GOLDEN_TEMPLATES: readonly GoldenTemplate[] = [
  {
    name: "the seed's sample CloneSet template as written",
    template: { metadata: { labels: { app: 'sample' } }, spec: { containers: [sampleContainer] } },
  },
  {
    name: "the seed's sample template as OpenKruise's mutating webhook leaves it",
    template: {
      metadata: { labels: { app: 'sample' } },
      spec: { containers: [defaultedContainer(sampleContainer)], ...webhookDefaults },
    },
  },
  {
    name: 'an empty template',
    template: {},
  },
  {
    name: 'quantities in many notations',
    template: {
      spec: {
        containers: [
          {
            name: 'q',
            resources: {
              limits: {
                cpu: '1000m',
                memory: '1.5Gi',
                a: '0.5',
                b: '1e3',
                c: '100M',
                d: '1.5e3',
                e: '0.1Ki',
                f: '+1k',
                g: '01Ki',
                h: '1E3',
                i: 2,
                j: 0.25,
                k: '12.5m',
                l: '1Ki',
                m: '1024Ki',
                n: '0.0000000001',
                o: '-1',
                p: '1000E',
                q: '8Ei',
                r: '5.',
                s: ' 2Gi ',
                t: '123456789012345678901234567890',
                u: '1n',
                v: '1.5n',
                w: '0',
                x: '0.0',
                y: '1e-3',
                z: '2e-10',
              },
              requests: {
                cpu: '250m',
                memory: '64Mi',
                'ephemeral-storage': '1G',
                'hugepages-2Mi': '100Mi',
                aa: '1.0',
                ab: '1000',
                ac: '1000000',
                ad: '1500000k',
                ae: '7Ei',
                af: '1Ti',
                ag: '1536Ki',
                ah: '0.5Ki',
                ai: '1.1Ki',
                aj: '-1.5Gi',
                ak: '3e6',
                al: '1e-9',
                am: '1e-12',
                an: '100u',
                ao: '.5',
                ap: '1e+3',
                aq: '00.50',
                ar: '999999999999999999',
                as: '1000000000000000000',
                at: '2048Mi',
                au: 1e21,
                av: 12.5,
                aw: '1P',
                ax: '1.234567891234e3',
              },
            },
          },
        ],
      },
    },
  },
  {
    name: 'quantities outside resource lists (sizeLimit, divisor, overhead)',
    template: {
      spec: {
        overhead: { cpu: '0.1', memory: '10Mi' },
        volumes: [{ name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '1.5Gi' } }],
        containers: [
          {
            name: 'app',
            env: [
              { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
              {
                name: 'MEM_LIMIT',
                valueFrom: { resourceFieldRef: { containerName: 'app', resource: 'limits.memory', divisor: '1Mi' } },
              },
              { name: 'CPU_MILLI', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '0.001' } } },
            ],
          },
        ],
      },
    },
  },
  {
    name: 'empty maps and lists, and nulls',
    template: {
      metadata: { labels: {}, annotations: {}, finalizers: [], name: null },
      spec: {
        nodeSelector: {},
        volumes: [],
        tolerations: [],
        imagePullSecrets: null,
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } },
        containers: [
          {
            name: 'a',
            command: [],
            args: [],
            env: [],
            ports: [],
            resources: { limits: {}, requests: null },
            volumeMounts: null,
          },
          {
            name: 'b',
            env: [null, { name: 'X', value: null }],
            resources: null,
            securityContext: null,
            livenessProbe: null,
          },
        ],
        initContainers: [],
        dnsConfig: { nameservers: [], options: [{ name: 'ndots' }, { name: 'edns0', value: null }] },
      },
    },
  },
  {
    name: 'HTML-special characters in labels, annotations, env values and commands',
    template: {
      metadata: {
        labels: { app: 'a&b' },
        annotations: {
          'example.com/html': '<script>alert("x")</script> & more',
          'example.com/gt': 'a>b',
          'example.com/seps': 'line\u2028para\u2029end',
        },
      },
      spec: {
        containers: [
          {
            name: 'html',
            image: 'busybox',
            command: ['sh', '-c', 'echo "<b>&amp;</b>" > /tmp/x && test 1 -lt 2'],
            env: [
              { name: 'TEMPLATE', value: '<%= value %> & <br/>' },
              { name: 'QUOTES', value: 'it\'s "quoted" \\ back' },
            ],
          },
        ],
      },
    },
  },
  {
    name: 'unicode, control characters and a lone surrogate',
    template: {
      metadata: {
        annotations: {
          'example.com/cjk': '中文 日本語 한국어',
          'example.com/emoji': '🚀 café naïve',
          'example.com/control': 'a\u0001b\bc\fd\ne\rf\tg\u007fh\u001fi',
          'example.com/lone': 'x\ud800y',
        },
        labels: { '\uE000': 'private-use', '😀': 'astral', z: 'ascii' },
      },
      spec: { containers: [{ name: 'uni', image: 'registry.example.com/ünïcödé:1', args: ['—', '…', '\u0000'] }] },
    },
  },
  {
    name: 'unknown and wrong-case fields are dropped',
    template: {
      kind: 'PodTemplate',
      status: { phase: 'Running' },
      metadata: { labels: { app: 'x' }, unknownField: 1, Labels: { ignored: 'yes' } },
      spec: {
        Containers: [{ name: 'ignored' }],
        containers: [
          {
            name: 'known',
            Image: 'dropped',
            image: 'kept',
            futureField: { a: 1 },
            resources: { limits: { cpu: '1' }, somethingElse: true },
          },
        ],
        spec: { containers: [] },
        hostnameOverride: 'added-in-1.34',
      },
    },
  },
  {
    name: 'probes with defaults, int-or-string ports and grpc',
    template: {
      spec: {
        containers: [
          defaultedContainer({
            name: 'web',
            image: 'nginx:1.25',
            ports: [
              { name: 'http', containerPort: 8080, protocol: 'TCP' },
              { containerPort: 9090, protocol: 'UDP', hostPort: 0 },
            ],
            livenessProbe: {
              httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-A', value: '<b>' }] },
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            readinessProbe: {
              tcpSocket: { port: 8080 },
              initialDelaySeconds: 0,
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            startupProbe: { grpc: { port: 9090 }, terminationGracePeriodSeconds: 0, failureThreshold: 30 },
          }),
          defaultedContainer({
            name: 'sidecar',
            image: 'envoy:v1',
            livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] } },
            readinessProbe: { tcpSocket: { port: '8081', host: 'localhost' } },
            startupProbe: { grpc: { port: 1, service: '' } },
            lifecycle: { preStop: { httpGet: { port: null, path: '/stop' } } },
          }),
        ],
        ...webhookDefaults,
      },
    },
  },
  {
    name: 'volumes of several kinds',
    template: {
      spec: {
        containers: [
          {
            name: 'v',
            volumeMounts: [
              { name: 'data', mountPath: '/data', readOnly: false, subPath: '' },
              { name: 'cfg', mountPath: '/etc/cfg', readOnly: true, mountPropagation: 'None' },
            ],
          },
        ],
        volumes: [
          { name: 'data', emptyDir: {} },
          {
            name: 'cfg',
            configMap: {
              name: 'cfg',
              items: [{ key: 'a', path: 'a.conf', mode: 256 }],
              defaultMode: 420,
              optional: false,
            },
          },
          { name: 'sec', secret: { secretName: 's', optional: true } },
          { name: 'host', hostPath: { path: '/var/log', type: 'DirectoryOrCreate' } },
          { name: 'pvc', persistentVolumeClaim: { claimName: 'data-0', readOnly: false } },
          {
            name: 'down',
            downwardAPI: { items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }] },
          },
          {
            name: 'proj',
            projected: {
              defaultMode: 292,
              sources: [
                { serviceAccountToken: { audience: 'api', expirationSeconds: 3600, path: 'token' } },
                { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
                { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
              ],
            },
          },
          { name: 'proj-null', projected: { sources: null } },
          {
            name: 'csi',
            csi: {
              driver: 'secrets-store.csi.k8s.io',
              readOnly: true,
              volumeAttributes: { secretProviderClass: 'vault', '10': 'ten', '9': 'nine' },
            },
          },
          {
            name: 'eph',
            ephemeral: {
              volumeClaimTemplate: {
                metadata: { labels: { type: 'scratch' } },
                spec: {
                  accessModes: ['ReadWriteOnce'],
                  storageClassName: 'fast',
                  resources: { requests: { storage: '1Gi' } },
                },
              },
            },
          },
          { name: 'img', image: { reference: 'example.com/data:1', pullPolicy: 'IfNotPresent' } },
          { name: 'nfs', nfs: { server: 'nfs.example.com', path: '/exports', readOnly: false } },
        ],
      },
    },
  },
  {
    name: 'affinity, tolerations and topology spread constraints',
    template: {
      metadata: { labels: { app: 'spread' } },
      spec: {
        containers: [{ name: 'c' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
              ],
            },
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 1,
                preference: { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-a'] }] },
              },
            ],
          },
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'spread' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 100,
                podAffinityTerm: {
                  labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
                  topologyKey: 'topology.kubernetes.io/zone',
                  matchLabelKeys: ['pod-template-hash'],
                },
              },
            ],
          },
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, podAffinityTerm: { topologyKey: 'zone' } }],
          },
        },
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
          { operator: 'Exists', tolerationSeconds: 0 },
        ],
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { app: 'spread' } },
            minDomains: 2,
            nodeAffinityPolicy: 'Honor',
          },
          {
            maxSkew: 2,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'ScheduleAnyway',
            matchLabelKeys: ['pod-template-hash'],
          },
        ],
        nodeSelector: { 'kubernetes.io/arch': 'amd64', '1': 'one', '10': 'ten', '9': 'nine', '01': 'zero-one' },
      },
    },
  },
  {
    name: 'pointer booleans and integers set to false and 0',
    template: {
      spec: {
        automountServiceAccountToken: false,
        enableServiceLinks: false,
        shareProcessNamespace: false,
        setHostnameAsFQDN: false,
        hostUsers: false,
        hostNetwork: false,
        hostPID: false,
        terminationGracePeriodSeconds: 0,
        activeDeadlineSeconds: 0,
        priority: 0,
        securityContext: {
          runAsNonRoot: false,
          runAsUser: 0,
          runAsGroup: 0,
          fsGroup: 0,
          supplementalGroups: [],
          sysctls: [{ name: 'net.core.somaxconn', value: '1024' }],
        },
        containers: [
          {
            name: 'c',
            stdin: false,
            tty: false,
            securityContext: {
              privileged: false,
              readOnlyRootFilesystem: false,
              allowPrivilegeEscalation: false,
              runAsNonRoot: false,
              capabilities: { drop: ['ALL'], add: [] },
            },
          },
        ],
      },
    },
  },
  {
    name: 'sidecar init containers (restartPolicy Always) and ephemeral containers',
    template: {
      spec: {
        initContainers: [
          defaultedContainer({
            name: 'proxy',
            image: 'envoy:v1',
            restartPolicy: 'Always',
            readinessProbe: { httpGet: { port: 15021, path: '/ready' } },
          }),
          defaultedContainer({ name: 'migrate', image: 'migrate:v1', command: ['migrate', 'up'] }),
        ],
        containers: [defaultedContainer({ name: 'app', image: 'app:v1' })],
        ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'app', stdin: true }],
        ...webhookDefaults,
      },
    },
  },
  {
    name: 'numbers: large int64, negative, and exponent forms',
    template: {
      spec: {
        // Go reads the exact int64; its generic round trip then rounds it to float64, as JSON.parse does.
        activeDeadlineSeconds: rawJson('9007199254740993'),
        priority: -5,
        terminationGracePeriodSeconds: 1e3,
        securityContext: { runAsUser: 4294967296, fsGroup: 2000 },
        containers: [
          { name: 'n', ports: [{ containerPort: 2147483647 }], lifecycle: { preStop: { sleep: { seconds: 5 } } } },
        ],
      },
    },
  },
  {
    name: 'metadata with timestamps, owner references and managed fields',
    template: {
      metadata: {
        name: 'tpl',
        generateName: 'tpl-',
        namespace: 'default',
        uid: 'b5c6…',
        resourceVersion: '42',
        generation: 3,
        creationTimestamp: '2024-05-01T10:20:30.123+02:00',
        deletionTimestamp: '2024-05-01T08:20:30Z',
        deletionGracePeriodSeconds: 0,
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'rs',
            uid: 'u1',
            controller: true,
            blockOwnerDeletion: false,
          },
        ],
        finalizers: ['example.com/protect'],
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Update',
            apiVersion: 'v1',
            time: '2024-05-01T10:20:30Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, n: 1.5, z: [1e21, -0] },
          },
        ],
      },
      spec: { containers: [{ name: 'm' }] },
    },
  },
  {
    name: "Go's zero time is written as null",
    template: {
      metadata: { creationTimestamp: '0001-01-01T00:00:00Z', deletionTimestamp: '0001-01-01T00:00:00Z' },
      spec: { containers: [{ name: 'z' }] },
    },
  },
  {
    name: 'env sources, envFrom and lifecycle hooks',
    template: {
      spec: {
        containers: [
          {
            name: 'env',
            envFrom: [{ configMapRef: { name: 'cfg', optional: false } }, { prefix: 'S_', secretRef: { name: 'sec' } }],
            env: [
              { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
              { name: 'PASS', valueFrom: { secretKeyRef: { name: 'sec', key: 'pass', optional: false } } },
              { name: 'CFG', valueFrom: { configMapKeyRef: { key: 'k' } } },
              { name: 'EMPTY', value: '' },
            ],
            lifecycle: {
              postStart: { exec: { command: ['/bin/sh', '-c', 'echo started'] } },
              preStop: { tcpSocket: { port: 80 } },
              stopSignal: 'SIGUSR1',
            },
            resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
            workingDir: '/app',
          },
        ],
      },
    },
  },
  {
    name: 'pod-level settings: dns, host aliases, readiness and scheduling gates, resource claims, os',
    template: {
      spec: {
        containers: [{ name: 'c', resources: { claims: [{ name: 'gpu' }] } }],
        dnsPolicy: 'None',
        dnsConfig: {
          nameservers: ['1.1.1.1'],
          searches: ['svc.cluster.local'],
          options: [{ name: 'ndots', value: '2' }],
        },
        hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local'] }, { ip: '10.0.0.1' }],
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }, { conditionType: 'KruisePodReady' }],
        schedulingGates: [{ name: 'example.com/wait' }],
        resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }],
        os: { name: 'linux' },
        priorityClassName: 'high',
        preemptionPolicy: 'Never',
        runtimeClassName: 'runc',
        serviceAccountName: 'sa',
        subdomain: 'sub',
        hostname: 'host',
        resources: { limits: { cpu: '2' } },
      },
    },
  },
  {
    name: 'security profiles and windows options',
    template: {
      spec: {
        securityContext: {
          seccompProfile: { type: 'RuntimeDefault' },
          appArmorProfile: { type: 'Localhost', localhostProfile: 'k8s-nginx' },
          seLinuxOptions: { level: 's0:c123,c456' },
          windowsOptions: { runAsUserName: 'ContainerUser', hostProcess: false },
          fsGroupChangePolicy: 'OnRootMismatch',
          supplementalGroupsPolicy: 'Strict',
        },
        containers: [
          {
            name: 'c',
            securityContext: {
              seccompProfile: { type: 'Unconfined' },
              procMount: 'Default',
              capabilities: { add: ['NET_ADMIN'] },
            },
          },
        ],
      },
    },
  },
  {
    name: 'fields of newer Kubernetes versions (unknown to k8s.io/api v0.32) are dropped',
    template: {
      spec: {
        hostnameOverride: 'custom',
        containers: [
          {
            name: 'c',
            restartPolicy: 'Never',
            restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }],
            lifecycle: { stopSignal: 'SIGTERM' },
            env: [{ name: 'F', valueFrom: { fileKeyRef: { volumeName: 'v', path: 'p', key: 'k' } } }],
          },
        ],
        volumes: [
          {
            name: 'pc',
            projected: { sources: [{ podCertificate: { signerName: 'example.com/s', keyType: 'ED25519' } }] },
          },
        ],
      },
    },
  },
  {
    name: 'null map values and null list elements decode to zero values',
    template: {
      metadata: { labels: { a: null, b: 'x' } },
      spec: {
        containers: [{ name: 'c', resources: { limits: { cpu: null } }, command: [null, 'x'], ports: [null] }],
        tolerations: [null],
      },
    },
  },
  {
    // Advanced StatefulSet revisions carry the same data (OpenKruise's statefulset getPatch is the
    // CloneSet one): its documentation's in-place template.
    name: "Advanced StatefulSet: the documentation's in-place template with the InPlaceUpdateReady gate and a claim mount",
    template: {
      metadata: { labels: { app: 'sample' } },
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        containers: [
          { name: 'main', image: 'nginx:alpine', volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }] },
        ],
      },
    },
  },
  {
    name: 'Advanced StatefulSet: a template with a lifecycle label, hostname-style subdomain fields and a headless-service port',
    template: {
      metadata: {
        labels: { app: 'db', 'lifecycle-hook': 'true' },
        annotations: { 'apps.kruise.io/image-predownload-parallelism': '5' },
      },
      spec: {
        subdomain: 'db',
        terminationGracePeriodSeconds: 10,
        containers: [
          { name: 'db', image: 'registry.k8s.io/nginx-slim:0.8', ports: [{ containerPort: 80, name: 'web' }] },
        ],
      },
    },
  },
  {
    name: 'Go rejects a string where an int32 is expected',
    template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: '80' }] }] } },
    goRejects: true,
  },
  {
    name: 'Go rejects a quantity it cannot parse',
    template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: 'one' } } }] } },
    goRejects: true,
  },
  {
    name: 'Go rejects a timestamp that is not RFC 3339',
    template: { metadata: { creationTimestamp: '2024-05-01 10:20:30' } },
    goRejects: true,
  },
  {
    name: 'Go rejects a fractional int-or-string port',
    template: { spec: { containers: [{ name: 'c', livenessProbe: { tcpSocket: { port: 80.5 } } }] } },
    goRejects: true,
  },
];
