/**
 * The SidecarSet validation handler with OpenKruise's patchPodMetadata whitelist in front of the dry
 * run: a SidecarSet whose patchPodMetadata the whitelist refuses is denied at
 * `spec.patchPodMetadata` as OpenKruise words it (`Required value: ...`), on create and update.
 */
import type { SidecarSet } from '@kruise-ts/api';
import { deniedResponse } from '@kruise-ts/controller-runtime';
import type { AdmissionHandler, DeepReadonly } from '@kruise-ts/controller-runtime';
import { formatFieldErrors } from '@kruise-ts/template-validation';
import type { ParsedWorkload } from '@kruise-ts/template-validation';

import { patchMetadataWhitelistProblem } from './patch-metadata-whitelist.ts';
import type { KruiseConfiguration } from './patch-metadata-whitelist.ts';

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

/** `inner` behind the whitelist check; the ConfigMap is read only for SidecarSets that patch pod metadata. */
export function withPatchMetadataWhitelist(inner: AdmissionHandler, deps: WhitelistDeps): AdmissionHandler {
  return async (request, signal) => {
    if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return inner(request, signal);
    const parsed = deps.parse(request.object);
    if (!parsed.ok || (parsed.value.spec.patchPodMetadata ?? []).length === 0) return inner(request, signal);
    const problem = patchMetadataWhitelistProblem(parsed.value, await deps.configuration(signal), deps.defaultsAllowed);
    if (problem === undefined) return inner(request, signal);
    const message = formatFieldErrors(`SidecarSet ${JSON.stringify(request.name ?? '')}`, [{ field: 'spec.patchPodMetadata', reason: 'FieldValueRequired', message: `Required value: ${problem}` }]);
    return deniedResponse(message, { code: 422, reason: 'Invalid' });
  };
}
