import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { webhookFlagsShape } from './webhook-flags.ts';

const schema = z.object(webhookFlagsShape);

describe('webhookFlagsShape', () => {
  it("defaults to OpenKruise's port, self-made certificates in memory and no configuration to inject", () => {
    expect(schema.parse({})).toEqual({
      'webhook-port': 9876,
      'webhook-host': '',
      'webhook-thread': true,
      'webhook-cert-dir': '',
      'webhook-service-name': 'kruise-ts-webhook',
      'webhook-service-namespace': 'kruise-system',
      'webhook-certs-secret': '',
      'webhook-mutating-configurations': [],
      'webhook-validating-configurations': [],
      'webhook-conversion-crds': [],
    });
  });

  it('reads a port and a list of configurations, and refuses a port out of range naming the flag', () => {
    expect(schema.parse({ 'webhook-port': '0', 'webhook-mutating-configurations': ' a, b ,,' })).toMatchObject({
      'webhook-port': 0,
      'webhook-mutating-configurations': ['a', 'b'],
    });
    const result = schema.safeParse({ 'webhook-port': '70000' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['webhook-port']);
  });
});
