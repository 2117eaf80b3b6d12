/** The API errors the kubelet tolerates, and a readable text for any error it logs. */
function hasCode(error: unknown, code: number): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

export function isNotFound(error: unknown): boolean {
  return hasCode(error, 404);
}

export function isConflict(error: unknown): boolean {
  return hasCode(error, 409);
}

export function errorText(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  return typeof error === 'string' ? error : JSON.stringify(error);
}
