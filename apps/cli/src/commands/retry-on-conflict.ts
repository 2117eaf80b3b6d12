import { isConflict } from '@kruise-ts/controller-runtime';

const ATTEMPTS = 5;

/**
 * Runs a read-check-write step again when its write lost a race (409 Conflict), as client-go's
 * RetryOnConflict does; the step reads and checks afresh each time.
 */
export async function retryOnConflict<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!isConflict(error) || attempt >= ATTEMPTS) {
        throw error;
      }
    }
  }
}
