/** What a pod's volumes and environment read from the API: the kubelet's narrow view of it. */
import type { AuthenticationV1TokenRequest, CoreV1Api, V1Pod } from '@kubernetes/client-node';

import { isNotFound } from './api-errors.ts';

export interface PodSources {
  /** A Secret's data, decoded; undefined when it does not exist. */
  secret(namespace: string, name: string): Promise<Record<string, Buffer> | undefined>;
  /** A ConfigMap's data and binaryData; undefined when it does not exist. */
  configMap(namespace: string, name: string): Promise<Record<string, Buffer> | undefined>;
  /** A token of the pod's ServiceAccount bound to the pod (TokenRequest), and when it expires. */
  serviceAccountToken(
    pod: V1Pod,
    request: { readonly audience?: string; readonly expirationSeconds: number },
  ): Promise<{ token: string; expiresAt: Date }>;
}

async function orUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) {
      return undefined;
    }
    throw error;
  }
}

function decoded(entries: Record<string, string> | undefined, encoding: 'base64' | 'utf8'): Record<string, Buffer> {
  return Object.fromEntries(Object.entries(entries ?? {}).map(([key, value]) => [key, Buffer.from(value, encoding)]));
}

/** A TokenRequest bound to the pod, as the kubelet asks for a projected token. */
function tokenRequest(
  pod: V1Pod,
  request: { readonly audience?: string; readonly expirationSeconds: number },
): AuthenticationV1TokenRequest {
  return {
    spec: {
      audiences: request.audience === undefined ? [] : [request.audience],
      expirationSeconds: request.expirationSeconds,
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' },
    },
  };
}

export function apiPodSources(core: CoreV1Api): PodSources {
  return {
    secret: async (namespace, name) => {
      const secret = await orUndefined(core.readNamespacedSecret({ namespace, name }));
      return secret === undefined ? undefined : decoded(secret.data, 'base64');
    },
    configMap: async (namespace, name) => {
      const configMap = await orUndefined(core.readNamespacedConfigMap({ namespace, name }));
      return configMap === undefined
        ? undefined
        : { ...decoded(configMap.data, 'utf8'), ...decoded(configMap.binaryData, 'base64') };
    },
    serviceAccountToken: async (pod, request) => {
      const answer = await core.createNamespacedServiceAccountToken({
        namespace: pod.metadata?.namespace ?? '',
        name: pod.spec?.serviceAccountName ?? 'default',
        body: tokenRequest(pod, request),
      });
      return { token: answer.status?.token ?? '', expiresAt: answer.status?.expirationTimestamp ?? new Date() };
    },
  };
}
