import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { parseFeatureGates } from './feature-gates/feature-gates.ts';
import { workersFlag, workloadControllerOptions } from './workload-controller-flags.ts';

describe('workloadControllerOptions', () => {
  const flags = {
    'feature-gates': parseFeatureGates('CloneSetShortHash=true'),
    workers: 3,
    'expectation-timeout': 300_000,
  };

  it("takes the controller's own workers over --workers, and the gates and expectation timeout as they are", () => {
    expect(workloadControllerOptions(flags, 8)).toEqual({
      featureGates: flags['feature-gates'],
      workers: 8,
      expectationTimeoutMs: 300_000,
    });
    expect(workloadControllerOptions(flags, undefined).workers).toBe(3);
  });

  it('reads the workers flag as an integer greater than 0', () => {
    const schema = z.object({ own: workersFlag() });
    expect(schema.parse({ own: '5' })).toEqual({ own: 5 });
    expect(schema.parse({})).toEqual({});
    expect(schema.safeParse({ own: '0' }).success).toBe(false);
    expect(schema.safeParse({ own: '1.5' }).success).toBe(false);
  });
});
