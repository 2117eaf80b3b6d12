/**
 * Kubernetes resource quantities as resourcesPolicy computes with them (k8s.io/apimachinery
 * resource.Quantity): the value in nano-units (the finest a quantity keeps; finer input rounds up), and
 * the format its suffix had, which decides how the result is written (`1Gi` stays binary, `500m`
 * decimal) exactly as Go's canonical String() writes it, so that an injected sidecar carries the same
 * strings as under OpenKruise.
 */

/** How a quantity is written: by its suffix (`Mi` BinarySI, `m`/`k`/none DecimalSI, `e3` DecimalExponent); `''` for Go's zero Quantity. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent' | '';

/** A quantity: its value in nano-units, and its format. */
export interface Quantity {
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const NANO = 1_000_000_000n;

/** Integer division rounding up (towards +infinity), as a quantity finer than a nano-unit is rounded. */
function divideUp(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator > 0n ? quotient + 1n : quotient;
}

function scaled(mantissa: bigint, decimals: number, factor: { readonly ten: number; readonly two: number }): bigint {
  const tens = 9 + factor.ten - decimals;
  const numerator = mantissa * 2n ** BigInt(factor.two) * (tens >= 0 ? 10n ** BigInt(tens) : 1n);
  return tens >= 0 ? numerator : divideUp(numerator, 10n ** BigInt(-tens));
}

function suffixOf(
  suffix: string,
): { readonly ten: number; readonly two: number; readonly format: QuantityFormat } | undefined {
  const decimal = DECIMAL_SUFFIXES[suffix];
  if (decimal !== undefined) {
    return { ten: decimal, two: 0, format: 'DecimalSI' };
  }
  const binary = BINARY_SUFFIXES[suffix];
  if (binary !== undefined) {
    return { ten: 0, two: binary, format: 'BinarySI' };
  }
  const exponent = /^[eE]([+-]?\d+)$/.exec(suffix)?.[1];
  return exponent === undefined ? undefined : { ten: Number(exponent), two: 0, format: 'DecimalExponent' };
}

/** resource.ParseQuantity; throws on what it refuses. */
export function parseQuantity(text: string): Quantity {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text.trim());
  const [, sign = '', whole = '', fraction = '', suffix = ''] = match ?? [];
  const factor = suffixOf(suffix);
  if (match === null || whole + fraction === '' || factor === undefined) {
    throw new Error(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  }
  const nanos = scaled(BigInt(whole + fraction), fraction.length, factor);
  return { nanos: sign === '-' ? -nanos : nanos, format: factor.format };
}

/** A quantity as it appears in a container's resources (a JSON string or number). */
export function quantityOf(value: string | number): Quantity {
  return parseQuantity(String(value));
}

/** resource.NewMilliQuantity(milli, DecimalSI). */
export function milliQuantity(milli: bigint): Quantity {
  return { nanos: milli * 1_000_000n, format: 'DecimalSI' };
}

/** resource.NewQuantity(value, DecimalSI). */
export function unitQuantity(value: bigint): Quantity {
  return { nanos: value * NANO, format: 'DecimalSI' };
}

/** Quantity.MilliValue: rounded up to a milli-unit. */
export function milliValue(quantity: Quantity): bigint {
  return divideUp(quantity.nanos, 1_000_000n);
}

/** Quantity.Add: a zero quantity takes the other one's format. */
export function addQuantities(left: Quantity, right: Quantity): Quantity {
  return { nanos: left.nanos + right.nanos, format: left.nanos === 0n ? right.format : left.format };
}

/** Quantity.Cmp. */
export function compareQuantities(left: Quantity, right: Quantity): number {
  return left.nanos === right.nanos ? 0 : left.nanos < right.nanos ? -1 : 1;
}

/** Go's canonical decimal form: the mantissa without trailing zeros, the exponent a multiple of 3. */
function decimalParts(nanos: bigint): { readonly mantissa: bigint; readonly exponent: number } {
  let mantissa = nanos;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  const remainder = ((exponent % 3) + 3) % 3;
  return { mantissa: mantissa * 10n ** BigInt(remainder), exponent: exponent - remainder };
}

function decimalString(nanos: bigint, format: QuantityFormat): string {
  let { mantissa, exponent } = decimalParts(nanos);
  if (format === 'DecimalExponent') {
    return `${mantissa.toString()}${exponent === 0 ? '' : `e${String(exponent)}`}`;
  }
  while (exponent > 18) {
    mantissa *= 1000n;
    exponent -= 3;
  }
  const suffix = Object.entries(DECIMAL_SUFFIXES).find(([, value]) => value === exponent)?.[0] ?? '';
  return `${mantissa.toString()}${suffix}`;
}

function binaryString(nanos: bigint): string {
  let amount = nanos / NANO;
  let exponent = 0;
  while (amount % 1024n === 0n && exponent < 60) {
    amount /= 1024n;
    exponent += 10;
  }
  const suffix = Object.entries(BINARY_SUFFIXES).find(([, value]) => value === exponent)?.[0] ?? '';
  return `${amount.toString()}${suffix}`;
}

/** Quantity.String(): Go's canonical form (BinarySI falls back to decimal below 1024 or with a fraction). */
export function formatQuantity(quantity: Quantity): string {
  const { nanos, format } = quantity;
  if (nanos === 0n) {
    return '0';
  }
  const wholeUnits = nanos % NANO === 0n;
  if (format === 'BinarySI' && wholeUnits && (nanos >= 1024n * NANO || nanos <= -1024n * NANO)) {
    return binaryString(nanos);
  }
  return decimalString(nanos, format === '' ? 'DecimalExponent' : format === 'BinarySI' ? 'DecimalSI' : format);
}
