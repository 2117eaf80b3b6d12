/**
 * The resourcesPolicy expressions: every expected value is what OpenKruise v1.9.0's calculator and
 * evaluateResourceExpression print for the same expression and variable (computed with its Go code).
 */
import { describe, expect, it } from 'vitest';

import { evaluate } from './calculator.ts';
import type { CalcValue } from './calculator.ts';
import { formatQuantity, milliQuantity, parseQuantity, unitQuantity } from './quantity.ts';

/** evaluateResourceExpression: the variable named by the expression, a plain number as cores or units. */
function resourceValue(expression: string, variable?: string): string {
  const name = /\bmemory\b/.test(expression) ? 'memory' : 'cpu';
  const value = variable === undefined ? { nanos: 0n, format: '' as const } : parseQuantity(variable);
  const result: CalcValue = evaluate(expression, new Map([[name, { kind: 'quantity', value }]]));
  if (result.kind === 'quantity') {
    return formatQuantity(result.value);
  }
  return formatQuantity(
    name === 'cpu'
      ? milliQuantity(BigInt(Math.trunc(result.value * 1000)))
      : unitQuantity(BigInt(Math.trunc(result.value))),
  );
}

describe('resourcesPolicy expressions (OpenKruise pkg/util/calculator)', () => {
  it.each([
    ['cpu*50%', '2', '1'],
    ['max(cpu*50%, 50m)', '200m', '100m'],
    ['max(cpu*50%, 50m)', '2', '1'],
    ['min(cpu, 1)', '2500m', '1'],
    ['cpu/4', '3', '750m'],
    ['cpu - 100m', '1', '900m'],
    ['memory*50%', '1Gi', '512Mi'],
    ['memory/3', '1Gi', '357913941333m'],
    ['max(memory*20%, 128Mi)', '1Gi', '214748364800m'],
    ['max(memory*20%, 128Mi)', '200Mi', '128Mi'],
    ['memory + 64Mi', '1Gi', '1088Mi'],
    ['memory + 100M', '1Gi', '1173741824'],
    ['200m', undefined, '200m'],
    ['0.5', undefined, '500m'],
    ['0.25 + 0.25', undefined, '500m'],
    ['memory*0 + 1.5', '1Gi', '1500m'],
    ['cpu + 1', '1500m', '2500m'],
    ['2 * (cpu + 100m)', '300m', '800m'],
    ['-cpu + 1', '200m', '800m'],
    ['50%', undefined, '500m'],
    ['(cpu)', '1500m', '1500m'],
    ['memory', '1536Mi', '1536Mi'],
    ['memory', '1500Mi', '1500Mi'],
    ['memory*1.5', '1Gi', '1536Mi'],
    ['cpu*2', '0', '0'],
    ['cpu + 50m', undefined, '50m'],
    ['memory', '100', '100'],
    ['memory*100%', '1000', '1k'],
    ['memory*0.5', '1025', '512500m'],
    ['cpu*33%', '1', '330m'],
    ['memory/1024', '1Mi', '1Ki'],
    ['2e3', undefined, '2k'],
    ['1Ki*2', undefined, '2Ki'],
    ['.5', undefined, '500m'],
    ['1.5e-1', undefined, '150m'],
    // Go ignores strconv.ParseFloat's error: an unknown unit reads as 0.
    ['3x', undefined, '0'],
    ['1 + 2 * 3', undefined, '7'],
    ['cpu*1e-1', '1', '100m'],
    ['MAX(cpu, 2)', '1', '2'],
    ['CPU*2', '1', '2'],
  ])('%s with %s: %s', (expression, variable, expected) => {
    expect(resourceValue(expression, variable)).toBe(expected);
  });

  it.each([
    ['cpu - 1', '200m', 'calculation result is negative'],
    ['cpu * cpu', '1', 'multiplication of two quantities'],
    ['cpu / cpu', '1', 'division by quantity'],
    ['cpu / 0', '1', 'division by zero'],
    ['max(cpu)', '1', 'max function requires exactly 2 arguments, got 1'],
    ['foo(cpu, 1)', '1', 'unknown function: foo'],
    ['cpu +', '1', 'parse error'],
    ['mem', '1', 'undefined variable: mem'],
    ['1e3m', undefined, 'quantities must match'],
    ['1e5e', undefined, 'parse error'],
    ['5Ei', undefined, 'parse error'],
  ])('%s with %s fails: %s', (expression, variable, message) => {
    expect(() => resourceValue(expression, variable)).toThrow(message);
  });
});
