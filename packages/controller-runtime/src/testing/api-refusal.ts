import { ApiError } from '../client/api-error.ts';

/** The API server's refusal of a write, or undefined when it was accepted; any other failure is thrown. */
export async function apiRefusal(write: Promise<unknown>): Promise<ApiError | undefined> {
  return write.then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof ApiError) {
        return error;
      }
      throw error;
    },
  );
}
