/** Raised when a pod carries in-place update annotations that cannot be read (OpenKruise fails the same way). */
export class InPlaceUpdateAnnotationError extends Error {
  readonly pod: string;
  /** Which annotation and what is wrong with it, without the pod's name. */
  readonly detail: string;

  constructor(pod: string, detail: string) {
    super(`pod ${pod}: ${detail}`);
    this.name = 'InPlaceUpdateAnnotationError';
    this.pod = pod;
    this.detail = detail;
  }
}
