/** The URL of a request to the API server: its path under the server URL's own path, and its query. */
import type { HttpRequest } from './transport.ts';

export function requestUrl(server: URL, request: Pick<HttpRequest, 'path' | 'query'>): URL {
  const url = new URL(server.pathname.replace(/\/$/, '') + request.path, server);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) {
      url.searchParams.set(key, String(value));
    }
  }
  return url;
}
