/** AdmissionRequests as the API server sends them, for handler tests. */
import type { AdmissionRequest } from '../admission-review.ts';

/** The kind under review and its plural resource; everything else of the request as it should be. */
export type AdmissionRequestInput = Partial<Omit<AdmissionRequest, 'kind' | 'resource'>> & {
  readonly kind: AdmissionRequest['kind'];
  /** The plural resource of `kind` (its group and version are the kind's). */
  readonly resource: string;
};

/** A request for `input.kind`: a CREATE by an anonymous user unless the input says otherwise. */
export function admissionRequest(input: AdmissionRequestInput): AdmissionRequest {
  const { kind, resource, ...rest } = input;
  return {
    uid: 'review-1',
    operation: 'CREATE',
    userInfo: {},
    kind,
    resource: { group: kind.group, version: kind.version, resource },
    ...rest,
  };
}
