/** Raised when a pod carries in-place update annotations that cannot be read (OpenKruise fails the same way). */
export class InPlaceUpdateAnnotationError extends Error {
  readonly pod: string;

  constructor(pod: string, message: string) {
    super(`pod ${pod}: ${message}`);
    this.name = 'InPlaceUpdateAnnotationError';
    this.pod = pod;
  }
}
