/**
 * Server-side dry runs (`dryRun=All`): the API server decodes, defaults, admits and validates the
 * object exactly as for a real create, and stores nothing. That is how a template is validated with
 * Kubernetes' own rules instead of a rewrite of them, for whatever version the cluster runs.
 */
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { ApiError } from '@kruise-ts/controller-runtime';
import type { StatusCause, Writer } from '@kruise-ts/controller-runtime';
import { podResource, pvcResource } from '@kruise-ts/workload';

/** The two dry runs a template needs; narrow so that tests can answer them in memory. */
export interface DryRunWriter {
  createPod(pod: Pod, signal: AbortSignal): Promise<void>;
  createClaim(claim: PersistentVolumeClaim, signal: AbortSignal): Promise<void>;
}

/** Dry runs through the API client; needs `create` on pods (and PVCs for claim templates). */
export function apiDryRun(client: Pick<Writer, 'create'>): DryRunWriter {
  return {
    createPod: async (pod, signal) => {
      await client.create(podResource, pod, { dryRun: true, signal });
    },
    createClaim: async (claim, signal) => {
      await client.create(pvcResource, claim, { dryRun: true, signal });
    },
  };
}

/**
 * What the API server said: `accepted`; `invalid` (422 with the causes, or 400 for an object it
 * cannot decode, with the field its decoder named); `refused` by an admission plugin or webhook
 * (403: Pod Security, a quota, a LimitRange), which is about the namespace rather than the template;
 * `unavailable` when it could not answer (timeouts, 5xx, the network).
 */
export type DryRunOutcome =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'invalid'; readonly causes: readonly StatusCause[]; readonly message: string }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'unavailable'; readonly message: string };

/** Go's JSON decoder names the field it could not decode: `... into Go struct field PodSpec.spec.volumes of type []v1.Volume`. */
const DECODE_FIELD = /Go struct field [A-Za-z0-9_]+\.([A-Za-z0-9_.[\]]+) of type/;

/** The causes of a 400 (the object cannot be decoded): one, at the field the decoder names when it does. */
function decodeCauses(message: string): StatusCause[] {
  const field = DECODE_FIELD.exec(message)?.[1] ?? '';
  const detail = message.includes(': json: ') ? message.slice(message.indexOf(': json: ') + 2) : message;
  return [
    { reason: 'FieldValueTypeInvalid', field, message: `Invalid value: the value cannot be decoded (${detail})` },
  ];
}

/** The outcome an API error stands for. */
function outcomeOfApiError(error: ApiError): DryRunOutcome {
  // A create is validated before it is stored: "already exists" means the object passed validation.
  if (error.code === 409 && error.reason === 'AlreadyExists') {
    return { kind: 'accepted' };
  }
  if (error.code === 422) {
    return {
      kind: 'invalid',
      causes: error.causes.length > 0 ? error.causes : [{ message: error.message }],
      message: error.message,
    };
  }
  if (error.code === 400) {
    return { kind: 'invalid', causes: decodeCauses(error.message), message: error.message };
  }
  return error.code === 403
    ? { kind: 'refused', message: error.message }
    : { kind: 'unavailable', message: error.message };
}

/** Runs one dry run and classifies its answer; an abort of `signal` is rethrown (the caller's time is up). */
export async function dryRunOutcome(run: () => Promise<void>, signal: AbortSignal): Promise<DryRunOutcome> {
  try {
    await run();
    return { kind: 'accepted' };
  } catch (error) {
    if (signal.aborted) {
      throw error;
    }
    return error instanceof ApiError
      ? outcomeOfApiError(error)
      : { kind: 'unavailable', message: error instanceof Error ? error.message : String(error) };
  }
}
