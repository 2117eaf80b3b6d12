/**
 * The defaults OpenKruise's SidecarSet webhook gives every sidecar container before it hashes them
 * (apis/apps/defaults setDefaultContainer): Kubernetes' SetDefaults_Container (imagePullPolicy from the
 * image tag, the termination message path and policy), ports' protocol TCP, fieldRef apiVersion v1,
 * and the probe and HTTP GET defaults. The CRD applies the SidecarSet's own defaults; these are the
 * core ones a CRD cannot express (the pull policy depends on the image), applied only for the hash,
 * never written to the SidecarSet.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Kubernetes' rule: `Always` for the tag `latest` or no tag (and no digest), else `IfNotPresent`. The
 * tag is what follows the last ':' after the last '/' (a registry port is not a tag).
 */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const [name = '', digest] = image.split('@');
  const lastPart = name.slice(name.lastIndexOf('/') + 1);
  const colon = lastPart.lastIndexOf(':');
  const tag = colon === -1 ? (digest === undefined ? 'latest' : '') : lastPart.slice(colon + 1);
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function withDefaults(object: Json, defaults: Json): Json {
  const result = { ...object };
  for (const [key, value] of Object.entries(defaults)) {
    if (result[key] === undefined || result[key] === '' || result[key] === 0) {
      result[key] = value;
    }
  }
  return result;
}

function mapIfObject(value: unknown, map: (object: Json) => Json): unknown {
  return isObject(value) ? map(value) : value;
}

const httpGet = (handler: Json): Json => ({
  ...handler,
  ...(isObject(handler['httpGet']) ? { httpGet: withDefaults(handler['httpGet'], { path: '/', scheme: 'HTTP' }) } : {}),
});
const probe = (value: Json): Json =>
  httpGet(withDefaults(value, { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 }));
const fieldRef = (value: Json): Json => ({
  ...value,
  ...(isObject(value['fieldRef']) ? { fieldRef: withDefaults(value['fieldRef'], { apiVersion: 'v1' }) } : {}),
});

function lifecycle(value: Json): Json {
  return {
    ...value,
    ...(isObject(value['postStart']) ? { postStart: httpGet(value['postStart']) } : {}),
    ...(isObject(value['preStop']) ? { preStop: httpGet(value['preStop']) } : {}),
  };
}

function listOf(value: unknown, map: (item: Json) => Json): unknown {
  return Array.isArray(value) ? value.map((item: unknown) => mapIfObject(item, map)) : value;
}

/** A sidecar container (its SidecarSet defaults applied by the CRD) with the webhook's core defaults. */
export function defaultSidecarContainer(container: Json): Json {
  const image = typeof container['image'] === 'string' ? container['image'] : '';
  return {
    ...withDefaults(container, {
      imagePullPolicy: defaultPullPolicy(image),
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    }),
    ports: listOf(container['ports'], (port) => withDefaults(port, { protocol: 'TCP' })),
    env: listOf(container['env'], (env) => ({
      ...env,
      ...(isObject(env['valueFrom']) ? { valueFrom: fieldRef(env['valueFrom']) } : {}),
    })),
    transferEnv: listOf(container['transferEnv'], (entry) => ({
      ...entry,
      ...(isObject(entry['sourceContainerNameFrom'])
        ? { sourceContainerNameFrom: fieldRef(entry['sourceContainerNameFrom']) }
        : {}),
    })),
    livenessProbe: mapIfObject(container['livenessProbe'], probe),
    readinessProbe: mapIfObject(container['readinessProbe'], probe),
    lifecycle: mapIfObject(container['lifecycle'], lifecycle),
  };
}
