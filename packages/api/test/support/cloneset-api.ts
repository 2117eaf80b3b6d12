/**
 * Helpers of the CloneSet integration tests: the CRD file, a valid CloneSet to start from, JSON merge
 * patches to derive variants, and reading the API server's rejection of a request.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { KubeConfig } from '@kubernetes/client-node';
import { ApiException, CustomObjectsApi } from '@kubernetes/client-node';
import { applyCrdFiles } from '@kruise-ts/local-cluster/testing';

/** The generated CRD file under test. */
export const CLONESET_CRD_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../crds/apps.kruise.io_clonesets.yaml',
);

/** Coordinates of the CloneSet resource for CustomObjectsApi calls. */
export const CLONESETS = { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'clonesets' } as const;

/** A JSON value as the API carries it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** Installs the generated CloneSet CRD and waits until it is Established. */
export async function installCloneSetCrd(kubeConfig: KubeConfig): Promise<CustomObjectsApi> {
  await applyCrdFiles(kubeConfig, [CLONESET_CRD_FILE]);
  return kubeConfig.makeApiClient(CustomObjectsApi);
}

/** A valid CloneSet named `name`: 3 nginx pods labelled app=sample. */
export function validCloneSet(name: string): JsonObject {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'sample' } },
      template: {
        metadata: { labels: { app: 'sample' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
      },
    },
  };
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7386 JSON merge patch: objects merge, `null` deletes, anything else replaces. Returns a new value. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) {
    return structuredClone(patch);
  }
  const result: JsonObject = isObject(target) ? structuredClone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      Reflect.deleteProperty(result, key);
    } else {
      result[key] = mergePatch(result[key] ?? null, value);
    }
  }
  return result;
}

/** How the API server refused a request. */
export interface Rejection {
  readonly code: number;
  readonly message: string;
  readonly fields: readonly string[];
}

interface StatusBody {
  readonly message?: string;
  readonly details?: { readonly causes?: readonly { readonly field?: string }[] };
}

/** Runs `request` and returns the API server's rejection; throws if the request succeeded. */
export async function rejectionOf(request: () => Promise<unknown>): Promise<Rejection> {
  try {
    await request();
  } catch (error) {
    if (!(error instanceof ApiException)) {
      throw error;
    }
    const body = (typeof error.body === 'string' ? JSON.parse(error.body) : error.body) as StatusBody;
    const fields = (body.details?.causes ?? []).flatMap((cause) => (cause.field === undefined ? [] : [cause.field]));
    return { code: error.code, message: body.message ?? '', fields };
  }
  throw new Error('expected the API server to reject the request, but it was accepted');
}
