/**
 * Axis ticks at "nice" steps (1, 2, 2.5 or 5 times a power of ten), the way a reader would label an
 * axis by hand, so the plot reads 0, 250, 500, ... rather than 0, 237, 474, ...
 */
import { groupThousands } from './format.ts';

const NICE_FACTORS = [1, 2, 2.5, 5, 10];

/** The nice step that divides `[0, max]` into about `target` intervals (1 for an empty range). */
export function niceStep(max: number, target: number): number {
  if (!(max > 0) || !Number.isFinite(max) || !(target > 0)) {
    return 1;
  }
  const raw = max / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const factor = NICE_FACTORS.find((candidate) => raw / magnitude <= candidate * (1 + 1e-9)) ?? 10;
  return factor * magnitude;
}

/** Decimals a multiple of `step` needs (0.25 ⇒ 2, 5 ⇒ 0). */
function decimalsOf(step: number): number {
  let decimals = 0;
  while (decimals < 10 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6) {
    decimals += 1;
  }
  return decimals;
}

/** Tick values from 0 up to `max` (inclusive), `niceStep(max, target)` apart, free of floating-point noise. */
export function niceTicks(max: number, target: number): number[] {
  const step = niceStep(max, target);
  const decimals = decimalsOf(step);
  const count = Math.floor((Number.isFinite(max) && max > 0 ? max : 0) / step + 1e-9);
  return Array.from({ length: count + 1 }, (_, index) => Number((index * step).toFixed(decimals)));
}

/** A tick label: thousands grouped, no trailing zeros (`2.5`, `10`, `1,000`). */
export function tickLabel(value: number): string {
  return Number.isInteger(value) ? groupThousands(value) : String(value);
}
