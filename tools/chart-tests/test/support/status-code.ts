/**
 * The HTTP status of a client-node call: 200 when it went through, the API server's code when it was
 * refused (the install tests check RBAC by the 403s an app's identity gets).
 */
import { ApiException } from '@kubernetes/client-node';

export async function statusCode(request: () => Promise<unknown>): Promise<number> {
  try {
    await request();
    return 200;
  } catch (error) {
    if (error instanceof ApiException) {
      return error.code;
    }
    throw error;
  }
}
