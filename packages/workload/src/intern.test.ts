import { describe, expect, it } from 'vitest';

import { intern, internValues } from './intern.ts';

describe('intern', () => {
  it('returns an equal string, for many distinct values (past the table being cleared) too', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => `value-${String(i)}`);
    expect(values.map((value) => intern(value))).toEqual(values);
    expect(intern(['Ready', 'Condition'].join(''))).toBe('ReadyCondition');
  });

  it('copies a string map with the same entries, and passes undefined through', () => {
    const labels = { app: 'web', 'apps.kruise.io/cloneset-instance-id': 'abcde' };
    const copy = internValues(labels);
    expect(copy).toEqual(labels);
    expect(copy).not.toBe(labels);
    expect(internValues(undefined)).toBeUndefined();
  });
});
