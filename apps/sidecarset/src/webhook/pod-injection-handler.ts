/**
 * The pod mutating webhook's handler (`/mutate-pod`, pods CREATE): the sidecars of every SidecarSet
 * that matches the new pod, as a JSON patch. It blocks a pod only as OpenKruise does when a sidecar's
 * resourcesPolicy finds no target container in it; a request it cannot read, a pod it cannot parse, or
 * an injection that fails is admitted unchanged with a warning (and the controller reports the pod as
 * created without its sidecars).
 */
import type { ControllerRevision, Pod, SidecarSet } from '@kruise-ts/api';
import { allowedResponse, deniedResponse, patchResponseFromObjects, WebhookUnavailableError } from '@kruise-ts/webhook';
import type { AdmissionHandler, AdmissionRequest, AdmissionResponse } from '@kruise-ts/webhook';
import type { DeepReadonly, KubeObject, Lister } from '@kruise-ts/controller-runtime';
import { z } from 'zod';

import { resolveInjectionConflicts } from '../conflict/sidecarset-conflicts.ts';
import { injectSidecars } from '../injection/inject-pod.ts';
import { injectingSidecarSets } from '../injection/pod-match.ts';
import { ResourcesPolicyError } from '../resources/resources-policy.ts';
import { injectionVersion } from '../revision/pinned-revision.ts';
import { parseSidecarSet } from '../sidecarset-resource.ts';

/** What the handler reads: the caches of every replica (the webhook runs on all of them, not only the leader). */
export interface PodInjectionDeps {
  readonly sidecarSets: Lister<SidecarSet>;
  readonly namespaces: Lister<KubeObject>;
  /** The SidecarSets' revisions (for a pinned `injectionStrategy.revision`). */
  readonly revisions: () => readonly DeepReadonly<ControllerRevision>[];
  readonly clock: { now(): number };
  /** Uniform in [0, 1): the draw of a `Partial` pinned revision. */
  readonly random: () => number;
  /** Resolves when the caches have synced (a replica that just started must not admit pods as if there were no SidecarSet). */
  readonly synced: (signal: AbortSignal) => Promise<void>;
}

/** The pod fields injection reads; anything else is kept as sent. */
const podSchema = z.looseObject({
  metadata: z
    .looseObject({
      namespace: z.string().optional(),
      labels: z.record(z.string(), z.string()).optional(),
      deletionTimestamp: z.string().optional(),
    })
    .optional(),
  spec: z.looseObject({ containers: z.array(z.looseObject({ name: z.string() })) }),
  status: z.looseObject({ phase: z.string().optional() }).optional(),
});

function isActive(pod: z.infer<typeof podSchema>): boolean {
  const phase = pod.status?.phase;
  return pod.metadata?.deletionTimestamp === undefined && phase !== 'Succeeded' && phase !== 'Failed';
}

/** The usable SidecarSets of the cache (one that cannot be read is skipped: the controller reports it). */
function usableSets(lister: Lister<SidecarSet>): DeepReadonly<SidecarSet>[] {
  return lister.list().flatMap((cached) => {
    const parsed = parseSidecarSet(cached);
    return parsed.kind === 'invalid' ? [] : [parsed.object];
  });
}

function isPodCreate(request: AdmissionRequest): boolean {
  return request.operation === 'CREATE' && request.resource.resource === 'pods' && (request.subResource ?? '') === '';
}

/** The pod's namespace; empty in a CREATE of a generated pod, where the request's is the one it gets. */
function namespaceOf(pod: z.infer<typeof podSchema>, request: AdmissionRequest): string {
  return pod.metadata?.namespace ?? request.namespace ?? 'default';
}

function inject(request: AdmissionRequest, deps: PodInjectionDeps): AdmissionResponse {
  const parsed = podSchema.safeParse(request.object);
  if (!parsed.success) {
    return allowedResponse({
      warnings: [
        `kruise-ts sidecarset webhook: the pod could not be read (${parsed.error.issues[0]?.message ?? 'invalid'}); admitted without sidecars`,
      ],
    });
  }
  if (!isActive(parsed.data)) {
    return allowedResponse();
  }
  const pod = request.object as Pod;
  const namespace = namespaceOf(parsed.data, request);
  const labels = deps.namespaces.get('', namespace)?.metadata?.labels;
  const matchable = { ...pod, metadata: { ...pod.metadata, namespace } };
  const sets = injectingSidecarSets(usableSets(deps.sidecarSets), matchable, {
    name: namespace,
    labels: labels ?? undefined,
  });
  if (sets.length === 0) {
    return allowedResponse();
  }
  const { kept, warnings } = resolveInjectionConflicts(sets);
  const revisions = deps.revisions();
  const versions = kept.map((set) => injectionVersion(set, matchable, { revisions, random: deps.random }));
  const response = patchResponseFromObjects(
    pod,
    injectSidecars(
      pod,
      versions.map((version) => version.set),
      new Date(deps.clock.now()),
    ),
  );
  const all = [...warnings, ...versions.flatMap((version) => (version.warning === undefined ? [] : [version.warning]))];
  return withWarnings(
    response,
    all.map((warning) => `kruise-ts sidecarset webhook: ${warning}`),
  );
}

function withWarnings(response: AdmissionResponse, warnings: readonly string[]): AdmissionResponse {
  return warnings.length === 0 ? response : { ...response, warnings: [...(response.warnings ?? []), ...warnings] };
}

/**
 * An empty cache would admit the pod without the sidecars of every SidecarSet: not an answer to give.
 * The server then answers no AdmissionReview and the webhook configuration's failurePolicy decides, as
 * when no replica can be reached (the server waits for these caches before calling the handler; this
 * covers a handler called otherwise).
 */
async function cachesSynced(deps: PodInjectionDeps, signal: AbortSignal): Promise<void> {
  try {
    await deps.synced(signal);
  } catch (error) {
    throw new WebhookUnavailableError(
      `kruise-ts sidecarset webhook: the caches of SidecarSets, namespaces and revisions have not synced (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** The handler of the pod mutating webhook. */
export function podInjectionHandler(deps: PodInjectionDeps): AdmissionHandler {
  return async (request, signal) => {
    if (!isPodCreate(request)) {
      return allowedResponse();
    }
    await cachesSynced(deps, signal);
    try {
      return inject(request, deps);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A resourcesPolicy the pod cannot satisfy is a refusal, as OpenKruise's (its API documents it), not a failure.
      if (error instanceof ResourcesPolicyError) {
        return deniedResponse(`kruise-ts sidecarset webhook: resourcesPolicy: ${message}`, {
          code: 400,
          reason: 'BadRequest',
        });
      }
      return allowedResponse({
        warnings: [`kruise-ts sidecarset webhook: injection failed (${message}); admitted without sidecars`],
      });
    }
  };
}
