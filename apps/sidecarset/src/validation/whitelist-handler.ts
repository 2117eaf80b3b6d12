/**
 * The SidecarSet validation handler with OpenKruise's own rules in front of the dry run: the
 * resourcesPolicy checks, and the patchPodMetadata whitelist (a refused key is denied at
 * `spec.patchPodMetadata` as OpenKruise words it, `Required value: ...`), on create and update.
 */
import type { SidecarSet } from '@kruise-ts/api';
import { deniedResponse } from '@kruise-ts/webhook';
import type { AdmissionHandler } from '@kruise-ts/webhook';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { formatFieldErrors } from '@kruise-ts/template-validation';
import type { FieldError, ParsedWorkload } from '@kruise-ts/template-validation';

import { patchMetadataWhitelistProblem } from './patch-metadata-whitelist.ts';
import type { KruiseConfiguration } from './patch-metadata-whitelist.ts';
import { resourcesPolicyErrors } from './resources-policy-validation.ts';

/** What the whitelist check reads. */
export interface WhitelistDeps {
  readonly parse: (object: unknown) => ParsedWorkload<DeepReadonly<SidecarSet>>;
  /**
   * The `kruise-configuration` ConfigMap's data (undefined: no such ConfigMap). A failed read throws:
   * the webhook fails open then, as on any failure of its own.
   */
  readonly configuration: (signal: AbortSignal) => Promise<KruiseConfiguration>;
  /** The SidecarSetPatchPodMetadataDefaultsAllowed gate. */
  readonly defaultsAllowed: boolean;
}

async function whitelistErrors(
  set: DeepReadonly<SidecarSet>,
  deps: WhitelistDeps,
  signal: AbortSignal,
): Promise<FieldError[]> {
  if ((set.spec.patchPodMetadata ?? []).length === 0) {
    return [];
  }
  const problem = patchMetadataWhitelistProblem(set, await deps.configuration(signal), deps.defaultsAllowed);
  return problem === undefined
    ? []
    : [{ field: 'spec.patchPodMetadata', reason: 'FieldValueRequired', message: `Required value: ${problem}` }];
}

/** `inner` behind OpenKruise's rules; the ConfigMap is read only for SidecarSets that patch pod metadata. */
export function withPatchMetadataWhitelist(inner: AdmissionHandler, deps: WhitelistDeps): AdmissionHandler {
  return async (request, signal) => {
    if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') {
      return inner(request, signal);
    }
    const parsed = deps.parse(request.object);
    if (!parsed.ok) {
      return inner(request, signal);
    }
    const errors = [...resourcesPolicyErrors(parsed.value), ...(await whitelistErrors(parsed.value, deps, signal))];
    if (errors.length === 0) {
      return inner(request, signal);
    }
    return deniedResponse(formatFieldErrors(`SidecarSet ${JSON.stringify(request.name ?? '')}`, errors), {
      code: 422,
      reason: 'Invalid',
    });
  };
}
