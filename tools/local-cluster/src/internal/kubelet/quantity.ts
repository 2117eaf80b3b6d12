/** Kubernetes resource quantities (`384Mi`, `100m`, `1.5G`) as numbers of base units. */
const SUFFIXES: Readonly<Record<string, number>> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

export function parseQuantity(quantity: string): number {
  const match = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)([a-zA-Z]*)$/u.exec(quantity.trim());
  const multiplier = match === null ? undefined : SUFFIXES[match[2] ?? ''];
  if (match === null || multiplier === undefined) {
    throw new Error(`not a resource quantity: ${JSON.stringify(quantity)}`);
  }
  return Number(match[1]) * multiplier;
}
