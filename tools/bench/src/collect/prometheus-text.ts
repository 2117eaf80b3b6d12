/**
 * The Prometheus text exposition format (version 0.0.4, what prom-client and client_golang serve on
 * /metrics), read into flat samples, and the few reductions the benchmark needs: histogram buckets,
 * their increase over a window and PromQL's histogram_quantile, the peak of a gauge and the sum of a
 * counter. A contender's /metrics is read, never trusted: lines that do not parse are skipped.
 */

/** One line of the exposition: a series (name and labels) and its value. */
export interface MetricSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One cumulative histogram bucket: observations ≤ `le` (the last one is `+Inf`, the total). */
export interface HistogramBucket {
  readonly le: number;
  readonly count: number;
}

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const TIMESTAMP = /^-?\d+$/;
// Go's strconv.ParseFloat spellings (case-insensitive), which client_golang and the Prometheus parser accept.
const SPECIAL_VALUES: ReadonlyMap<string, number> = new Map([
  ['+inf', Infinity],
  ['inf', Infinity],
  ['+infinity', Infinity],
  ['infinity', Infinity],
  ['-inf', -Infinity],
  ['-infinity', -Infinity],
  ['nan', NaN],
]);
const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['\\', '\\'],
  ['"', '"'],
  ['n', '\n'],
]);

/** Reads a sample value (`1.5`, `1e3`, `+Inf`, `NaN`, ...); undefined when it is not a number. */
export function parseSampleValue(text: string): number | undefined {
  const special = SPECIAL_VALUES.get(text.toLowerCase());
  if (special !== undefined) {
    return special;
  }
  return FLOAT.test(text) ? Number(text) : undefined;
}

/** Every sample of an exposition, in order; comments, HELP/TYPE lines and malformed lines are skipped. */
export function parsePrometheusText(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    const sample = parseSampleLine(line);
    if (sample !== undefined) {
      samples.push(sample);
    }
  }
  return samples;
}

function parseSampleLine(line: string): MetricSample | undefined {
  const text = line.trim();
  const name = text.startsWith('#') ? undefined : METRIC_NAME.exec(text)?.[0];
  if (name === undefined) {
    return undefined;
  }
  const rest = text.slice(name.length);
  const parsed = rest.startsWith('{') ? parseLabels(rest) : { labels: EMPTY, end: 0 };
  // A bare name needs a separator before its value (`up1.5` is no sample of `up`).
  if (parsed === undefined || (parsed.end === 0 && !/^[ \t]/.test(rest))) {
    return undefined;
  }
  const value = parseValueAndTimestamp(rest.slice(parsed.end));
  return value === undefined ? undefined : { name, labels: parsed.labels, value };
}

/** The value of `<value> [timestamp]` (the timestamp, milliseconds since the epoch, is checked and dropped). */
function parseValueAndTimestamp(text: string): number | undefined {
  const fields = text.trim().split(/[ \t]+/);
  const [valueText, timestamp, ...extra] = fields;
  if (valueText === undefined || extra.length > 0 || (timestamp !== undefined && !TIMESTAMP.test(timestamp))) {
    return undefined;
  }
  return parseSampleValue(valueText);
}

interface Cursor {
  readonly text: string;
  position: number;
}

/** Reads `{name="value",...}` at the start of `text`; `end` is the index after the closing brace. */
function parseLabels(text: string): { labels: Record<string, string>; end: number } | undefined {
  const cursor: Cursor = { text, position: 1 };
  const labels: Record<string, string> = {};
  for (;;) {
    skipSpaces(cursor);
    if (text[cursor.position] === '}') {
      return { labels, end: cursor.position + 1 };
    }
    const label = readLabel(cursor);
    if (label === undefined) {
      return undefined;
    }
    labels[label.name] = label.value;
    skipSpaces(cursor);
    if (text[cursor.position] === ',') {
      cursor.position += 1;
    } else if (text[cursor.position] !== '}') {
      return undefined;
    }
  }
}

function readLabel(cursor: Cursor): { name: string; value: string } | undefined {
  LABEL_NAME.lastIndex = cursor.position;
  const name = LABEL_NAME.exec(cursor.text)?.[0];
  if (name === undefined) {
    return undefined;
  }
  cursor.position += name.length;
  skipSpaces(cursor);
  if (cursor.text[cursor.position] !== '=') {
    return undefined;
  }
  cursor.position += 1;
  skipSpaces(cursor);
  const value = readQuoted(cursor);
  return value === undefined ? undefined : { name, value };
}

/** Reads a double-quoted label value with the escapes `\\`, `\"` and `\n` (any other escape is kept as written). */
function readQuoted(cursor: Cursor): string | undefined {
  const { text } = cursor;
  if (text[cursor.position] !== '"') {
    return undefined;
  }
  let value = '';
  for (let index = cursor.position + 1; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (char === '"') {
      cursor.position = index + 1;
      return value;
    }
    if (char === '\\' && index + 1 < text.length) {
      index += 1;
      const escaped = text.charAt(index);
      value += ESCAPES.get(escaped) ?? `\\${escaped}`;
    } else {
      value += char;
    }
  }
  return undefined;
}

function skipSpaces(cursor: Cursor): void {
  while (cursor.text[cursor.position] === ' ' || cursor.text[cursor.position] === '\t') {
    cursor.position += 1;
  }
}

/** Whether a series carries every label of `filter` with the same value. */
function matchesLabels(labels: Readonly<Record<string, string>>, filter: Readonly<Record<string, string>>): boolean {
  return Object.entries(filter).every(([name, value]) => labels[name] === value);
}

function seriesOf(
  samples: readonly MetricSample[],
  name: string,
  labelFilter: Readonly<Record<string, string>>,
): MetricSample[] {
  return samples.filter((sample) => sample.name === name && matchesLabels(sample.labels, labelFilter));
}

/**
 * The cumulative buckets of histogram `metricName` (its `<metricName>_bucket` series), summed per `le`
 * over every series that carries `labelFilter` (PromQL's `sum by (le)`), sorted by `le`.
 */
export function histogramBuckets(
  samples: readonly MetricSample[],
  metricName: string,
  labelFilter: Readonly<Record<string, string>> = {},
): HistogramBucket[] {
  const counts = new Map<number, number>();
  for (const sample of seriesOf(samples, `${metricName}_bucket`, labelFilter)) {
    const le = parseSampleValue(sample.labels['le'] ?? '');
    if (le !== undefined && !Number.isNaN(le)) {
      counts.set(le, (counts.get(le) ?? 0) + sample.value);
    }
  }
  return [...counts].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

/**
 * The increase of each bucket of `after` since `before` (two scrapes around the measured window); a
 * bucket `before` lacks counts from 0. No counter-reset handling: a contender restarted in the window
 * has no meaningful increase anyway.
 */
export function subtractBuckets(
  after: readonly HistogramBucket[],
  before: readonly HistogramBucket[],
): HistogramBucket[] {
  const earlier = new Map(before.map((bucket) => [bucket.le, bucket.count]));
  return after.map((bucket) => ({ le: bucket.le, count: bucket.count - (earlier.get(bucket.le) ?? 0) }));
}

/**
 * PromQL's `histogram_quantile(q, ...)` over classic cumulative buckets: linear interpolation within
 * the bucket the rank falls into, 0 as the lower bound of the first bucket (unless its upper bound is
 * ≤ 0, which is then returned), and the highest finite bound when the rank falls into `+Inf`. Where
 * PromQL yields NaN (no observations, no `+Inf` bucket, fewer than two buckets) this yields undefined;
 * q < 0 and q > 1 give −∞ and +∞ as in PromQL.
 */
export function histogramQuantile(q: number, buckets: readonly HistogramBucket[]): number | undefined {
  if (Number.isNaN(q)) {
    return undefined;
  }
  if (q < 0 || q > 1) {
    return q < 0 ? -Infinity : Infinity;
  }
  const sorted = monotonic(coalesce(buckets));
  const last = sorted.at(-1);
  if (last === undefined || last.le !== Infinity || sorted.length < 2 || last.count === 0) {
    return undefined;
  }
  return interpolate(sorted, q * last.count);
}

/** The quantile at `rank` (observations below it) in sorted, monotonic buckets ending with `+Inf`. */
function interpolate(buckets: readonly HistogramBucket[], rank: number): number | undefined {
  const finite = buckets.slice(0, -1);
  const index = finite.findIndex((bucket) => bucket.count >= rank);
  const bucket = finite[index];
  if (bucket === undefined) {
    return finite.at(-1)?.le;
  }
  const previous = finite[index - 1];
  if (previous === undefined && bucket.le <= 0) {
    return bucket.le;
  }
  const start = previous?.le ?? 0;
  const below = previous?.count ?? 0;
  const result = start + (bucket.le - start) * ((rank - below) / (bucket.count - below));
  // 0/0 when the rank lands on an empty bucket (q = 0): NaN in PromQL.
  return Number.isNaN(result) ? undefined : result;
}

/** Sorted by bound, buckets of the same bound merged (their counts added). */
function coalesce(buckets: readonly HistogramBucket[]): HistogramBucket[] {
  const counts = new Map<number, number>();
  for (const bucket of buckets) {
    counts.set(bucket.le, (counts.get(bucket.le) ?? 0) + bucket.count);
  }
  return [...counts].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

/** Counts made non-decreasing (scrapes of buckets are not atomic), as PromQL does. */
function monotonic(buckets: readonly HistogramBucket[]): HistogramBucket[] {
  let highest = -Infinity;
  return buckets.map((bucket) => {
    highest = Math.max(highest, bucket.count);
    return { le: bucket.le, count: highest };
  });
}

/** The values of the series of `name` that carry `labelFilter`, NaN values left out. */
function valuesOf(
  samples: readonly MetricSample[],
  name: string,
  labelFilter: Readonly<Record<string, string>>,
): number[] {
  return seriesOf(samples, name, labelFilter)
    .map((sample) => sample.value)
    .filter((value) => !Number.isNaN(value));
}

/** The highest value of any series of gauge `name` (NaN values ignored); undefined when there is none. */
export function gaugeMax(
  samples: readonly MetricSample[],
  name: string,
  labelFilter: Readonly<Record<string, string>> = {},
): number | undefined {
  const values = valuesOf(samples, name, labelFilter);
  return values.length === 0 ? undefined : values.reduce((max, value) => Math.max(max, value), -Infinity);
}

/**
 * The sum over every series of counter `name` (the full name, `_total` included; NaN values ignored);
 * undefined when there is none.
 */
export function counterSum(
  samples: readonly MetricSample[],
  name: string,
  labelFilter: Readonly<Record<string, string>> = {},
): number | undefined {
  const values = valuesOf(samples, name, labelFilter);
  return values.length === 0 ? undefined : values.reduce((sum, value) => sum + value, 0);
}
