import type https from 'node:https';

/** The credentials `applyToHTTPSOptions` put into the options, as request headers. */
export function credentialHeaders(options: https.RequestOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value === 'string') {
      headers[name] = value;
    }
  }
  if (typeof options.auth === 'string') {
    headers['Authorization'] = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  }
  return headers;
}
