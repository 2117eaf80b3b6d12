/**
 * A container's environment as the kubelet builds it: the image's ENV, the KUBERNETES_SERVICE_*
 * variables (pointing at the API server itself: there is no kube-proxy to route the Service's
 * cluster IP), HOSTNAME, then `envFrom`, then `env` with `$(VAR)` references and `valueFrom`.
 */
import type { V1Container, V1EnvFromSource, V1EnvVar, V1Pod } from '@kubernetes/client-node';

import type { PodSources } from './pod-sources.ts';
import { parseQuantity } from './quantity.ts';

/** Why an environment could not be built (a missing Secret key): the container waits in CreateContainerConfigError. */
export class ContainerConfigError extends Error {}

const SUBSCRIPT = /^metadata\.(labels|annotations)\['(.+)'\]$/u;

// The IPs are the kubelet's own (its `address`): the pod's status may not carry them yet at the first start.
const FIELD_PATHS = new Map<string, (pod: V1Pod, address: string | undefined) => string | undefined>([
  ['metadata.name', (pod) => pod.metadata?.name],
  ['metadata.namespace', (pod) => pod.metadata?.namespace],
  ['metadata.uid', (pod) => pod.metadata?.uid],
  ['spec.nodeName', (pod) => pod.spec?.nodeName],
  ['spec.serviceAccountName', (pod) => pod.spec?.serviceAccountName],
  ['status.hostIP', (pod, address) => address ?? pod.status?.hostIP],
  ['status.hostIPs', (pod, address) => address ?? pod.status?.hostIP],
  ['status.podIP', (pod, address) => address ?? pod.status?.podIP],
  ['status.podIPs', (pod, address) => address ?? pod.status?.podIP],
]);

/** The value of a downward API `fieldPath` (the paths the kubelet supports); `address`: the pod's IP. */
export function fieldPathValue(pod: V1Pod, fieldPath: string, address?: string): string {
  const subscript = SUBSCRIPT.exec(fieldPath);
  if (subscript !== null) {
    const map = subscript[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations;
    return map?.[subscript[2] ?? ''] ?? '';
  }
  const read = FIELD_PATHS.get(fieldPath);
  if (read === undefined) {
    throw new ContainerConfigError(`fieldRef ${JSON.stringify(fieldPath)} is not supported`);
  }
  return read(pod, address) ?? '';
}

function resourceFieldValue(container: V1Container, reference: { resource: string; divisor?: string }): string {
  const [kind, resource] = reference.resource.split('.');
  const quantities = kind === 'limits' ? container.resources?.limits : container.resources?.requests;
  const quantity = resource === undefined ? undefined : quantities?.[resource];
  if (quantity === undefined) {
    throw new ContainerConfigError(
      `resourceFieldRef ${reference.resource}: the container sets no such ${kind ?? 'resource'}`,
    );
  }
  const divisor = reference.divisor === undefined ? 1 : parseQuantity(reference.divisor);
  return String(Math.ceil(parseQuantity(quantity) / divisor));
}

/**
 * `$(VAR)` replaced by the value of VAR when it is defined, kept as written when not; `$$` is a
 * literal `$` (so `$$(VAR)` stays `$(VAR)`), as the kubelet expands env values, command and args.
 */
export function expandReferences(text: string, known: Readonly<Record<string, string>>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/gu, (match, name: string | undefined) =>
    name === undefined ? '$' : (known[name] ?? match),
  );
}

interface KeyReference {
  readonly name?: string;
  readonly key: string;
  readonly optional?: boolean;
}

function missingKeyMessage(missing: {
  kind: 'secret' | 'configMap';
  namespace: string;
  name: string;
  key: string;
  found: boolean;
}): string {
  if (!missing.found) {
    return `${missing.kind === 'secret' ? 'secret' : 'configmap'} ${JSON.stringify(missing.name)} not found`;
  }
  // The kubelet's own wording.
  return `couldn't find key ${missing.key} in ${missing.kind === 'secret' ? 'Secret' : 'ConfigMap'} ${missing.namespace}/${missing.name}`;
}

function readObject(
  context: EnvContext,
  kind: 'secret' | 'configMap',
  name: string,
): Promise<Record<string, Buffer> | undefined> {
  const namespace = context.pod.metadata?.namespace ?? '';
  return kind === 'secret' ? context.sources.secret(namespace, name) : context.sources.configMap(namespace, name);
}

async function keyOf(
  context: EnvContext,
  kind: 'secret' | 'configMap',
  reference: KeyReference,
): Promise<string | undefined> {
  const namespace = context.pod.metadata?.namespace ?? '';
  const name = reference.name ?? '';
  const data = await readObject(context, kind, name);
  const value = data?.[reference.key];
  if (value === undefined && reference.optional !== true) {
    throw new ContainerConfigError(
      missingKeyMessage({ kind, namespace, name, key: reference.key, found: data !== undefined }),
    );
  }
  return value?.toString('utf8');
}

interface EnvContext {
  readonly pod: V1Pod;
  readonly container: V1Container;
  readonly sources: PodSources;
  /** The pod's IP (this machine's address). */
  readonly address?: string;
}

async function valueOf(
  context: EnvContext,
  variable: V1EnvVar,
  known: Readonly<Record<string, string>>,
): Promise<string | undefined> {
  const from = variable.valueFrom;
  if (from === undefined) {
    return expandReferences(variable.value ?? '', known);
  }
  if (from.fieldRef !== undefined) {
    return fieldPathValue(context.pod, from.fieldRef.fieldPath, context.address);
  }
  if (from.resourceFieldRef !== undefined) {
    return resourceFieldValue(context.container, from.resourceFieldRef);
  }
  if (from.secretKeyRef !== undefined) {
    return keyOf(context, 'secret', from.secretKeyRef);
  }
  if (from.configMapKeyRef !== undefined) {
    return keyOf(context, 'configMap', from.configMapKeyRef);
  }
  throw new ContainerConfigError(`env ${variable.name}: an unsupported valueFrom`);
}

const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/u;

/** The variables of one `envFrom` source: every key that is a valid name, with the prefix. */
function envFromReference(source: V1EnvFromSource): { kind: 'secret' | 'configMap'; name: string; optional: boolean } {
  const reference = source.secretRef ?? source.configMapRef ?? {};
  return {
    kind: source.secretRef === undefined ? 'configMap' : 'secret',
    name: reference.name ?? '',
    optional: reference.optional === true,
  };
}

async function envFromValues(context: EnvContext, source: V1EnvFromSource): Promise<Record<string, string>> {
  const { kind, name, optional } = envFromReference(source);
  const data = await readObject(context, kind, name);
  if (data === undefined && !optional) {
    throw new ContainerConfigError(
      missingKeyMessage({ kind, namespace: context.pod.metadata?.namespace ?? '', name, key: '', found: false }),
    );
  }
  return prefixed(data ?? {}, source.prefix ?? '');
}

/** Keys that are not valid variable names (with the prefix) are skipped, as the kubelet skips them. */
function prefixed(data: Readonly<Record<string, Buffer>>, prefix: string): Record<string, string> {
  const entries = Object.entries(data).filter(([key]) => ENV_NAME.test(prefix + key));
  return Object.fromEntries(entries.map(([key, value]) => [prefix + key, value.toString('utf8')]));
}

export interface ApiServerAddress {
  readonly host: string;
  readonly port: string;
}

/** The container's environment; `base` is the image's ENV. */
export async function containerEnvironment(
  context: EnvContext,
  base: Readonly<Record<string, string>>,
  apiServer: ApiServerAddress,
): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    ...base,
    HOSTNAME: context.pod.spec?.hostname ?? context.pod.metadata?.name ?? '',
    KUBERNETES_SERVICE_HOST: apiServer.host,
    KUBERNETES_SERVICE_PORT: apiServer.port,
    KUBERNETES_SERVICE_PORT_HTTPS: apiServer.port,
  };
  for (const source of context.container.envFrom ?? []) {
    Object.assign(env, await envFromValues(context, source));
  }
  for (const variable of context.container.env ?? []) {
    const value = await valueOf(context, variable, env);
    if (value !== undefined) {
      env[variable.name] = value;
    }
  }
  return env;
}
