import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';

import { UsageError } from '../cli/cli-errors.ts';
import {
  checkObjectName,
  checkTargetKind,
  DEFAULT_MAX_SURGE,
  DEFAULT_TIMEOUT_MS,
  migrateOptions,
  parseMaxSurge,
  parseTimeout,
} from './options.ts';
import { formatDuration, selectorString } from './report.ts';

describe('--max-surge', () => {
  it.each([
    ['1', { count: 1 }],
    ['12', { count: 12 }],
    ['25%', { percent: 25 }],
    ['100%', { percent: 100 }],
  ])('%s', (value, expected) => {
    expect(parseMaxSurge(value)).toEqual(expected);
  });

  it.each(['0', '-1', '1.5', 'two', '', '0%', '101%', '25 %', '%'])('refuses %j', (value) => {
    expect(() => parseMaxSurge(value)).toThrow(InvalidArgumentError);
  });
});

describe('--timeout', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['10m', 600_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['2m30s', 150_000],
  ])('%s is %i ms', (value, ms) => {
    expect(parseTimeout(value)).toBe(ms);
  });

  it.each(['10', '0s', 'm', '10 m', '-5s', '5d', ''])('refuses %j', (value) => {
    expect(() => parseTimeout(value)).toThrow(InvalidArgumentError);
  });

  it.each([
    [600_000, '10m0s'],
    [5_400_000, '1h30m0s'],
    [2_000, '2s'],
    [1_500, '1.5s'],
    [150_000, '2m30s'],
  ])('prints %i ms as %s, as kubectl does', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('migrateOptions', () => {
  it('fills in the defaults', () => {
    expect(migrateOptions({ to: 'cloneset' })).toEqual({
      to: 'cloneset',
      maxSurge: DEFAULT_MAX_SURGE,
      timeout: DEFAULT_TIMEOUT_MS,
      dryRun: false,
    });
    expect(DEFAULT_MAX_SURGE).toEqual({ count: 1 });
    expect(DEFAULT_TIMEOUT_MS).toBe(600_000);
  });
});

describe('--to and --name', () => {
  it.each(['cloneset', 'clonesets', 'clone', 'CloneSet', 'cloneset.apps.kruise.io'])('takes --to %s', (to) => {
    expect(() => {
      checkTargetKind(to);
    }).not.toThrow();
  });

  it.each(['asts', 'statefulset', 'deployment', 'widget', ''])('refuses --to %j', (to) => {
    expect(() => {
      checkTargetKind(to);
    }).toThrow(UsageError);
  });

  it.each(['web', 'web-cs', 'web.v2', 'a'])('takes --name %s', (name) => {
    expect(() => {
      checkObjectName(name);
    }).not.toThrow();
  });

  it.each(['Web', 'web_cs', '-web', 'web-', '', 'a'.repeat(254)])('refuses --name %j', (name) => {
    expect(() => {
      checkObjectName(name);
    }).toThrow(UsageError);
  });
});

describe('selectorString', () => {
  it.each([
    [{ matchLabels: { app: 'web' } }, 'app=web'],
    [{ matchLabels: { app: 'web', tier: 'front' } }, 'app=web,tier=front'],
    [
      {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['a', 'b'] },
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'zone', operator: 'Exists' },
          { key: 'env', operator: 'NotIn', values: ['dev'] },
        ],
      },
      'app=web,tier in (a,b),!canary,zone,env notin (dev)',
    ],
    [{}, '(everything)'],
  ])('%j', (selector, text) => {
    expect(selectorString(selector)).toBe(text);
  });
});
