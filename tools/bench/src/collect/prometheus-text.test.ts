import { describe, expect, it } from 'vitest';

import {
  counterSum,
  gaugeMax,
  histogramBuckets,
  histogramQuantile,
  parsePrometheusText,
  parseSampleValue,
  subtractBuckets,
} from './prometheus-text.ts';
import type { HistogramBucket } from './prometheus-text.ts';

/** Buckets from `[le, count]` pairs. */
function buckets(...pairs: [number, number][]): HistogramBucket[] {
  return pairs.map(([le, count]) => ({ le, count }));
}

describe('parseSampleValue', () => {
  it.each([
    { text: '1', value: 1 },
    { text: '-2.5', value: -2.5 },
    { text: '1.5e3', value: 1500 },
    { text: '.5', value: 0.5 },
    { text: '+Inf', value: Infinity },
    { text: 'Inf', value: Infinity },
    { text: '-Inf', value: -Infinity },
    { text: 'NaN', value: NaN },
    { text: 'abc', value: undefined },
    { text: '', value: undefined },
    { text: '0x10', value: undefined },
  ])('$text ⇒ $value', ({ text, value }) => {
    expect(parseSampleValue(text)).toBe(value);
  });
});

describe('parsePrometheusText', () => {
  it('reads what prom-client serves, skipping comments and HELP/TYPE lines', () => {
    const text = [
      '# HELP nodejs_heap_size_used_bytes Process heap size used from Node.js in bytes.',
      '# TYPE nodejs_heap_size_used_bytes gauge',
      'nodejs_heap_size_used_bytes 12345678',
      '',
      '# a free comment',
      'controller_runtime_reconcile_total{controller="cloneset",result="success"} 42',
      'process_start_time_seconds 1700000000',
    ].join('\n');
    expect(parsePrometheusText(text)).toEqual([
      { name: 'nodejs_heap_size_used_bytes', labels: {}, value: 12345678 },
      { name: 'controller_runtime_reconcile_total', labels: { controller: 'cloneset', result: 'success' }, value: 42 },
      { name: 'process_start_time_seconds', labels: {}, value: 1700000000 },
    ]);
  });

  it.each([
    { line: 'a{path="C:\\\\dir"} 1', labels: { path: 'C:\\dir' } },
    { line: 'a{msg="say \\"hi\\""} 1', labels: { msg: 'say "hi"' } },
    { line: 'a{msg="two\\nlines"} 1', labels: { msg: 'two\nlines' } },
    { line: 'a{msg="keeps \\t as written"} 1', labels: { msg: 'keeps \\t as written' } },
    { line: 'a{msg="a,b=c}"} 1', labels: { msg: 'a,b=c}' } },
    { line: 'a{x="1",} 1', labels: { x: '1' } },
    { line: 'a{ x = "1" , y="" } 1', labels: { x: '1', y: '' } },
    { line: 'a{} 1', labels: {} },
  ])('label values: $line', ({ line, labels }) => {
    expect(parsePrometheusText(line)).toEqual([{ name: 'a', labels, value: 1 }]);
  });

  it.each([
    { line: 'http_bucket{le="+Inf"} +Inf', value: Infinity },
    { line: 'gauge -Inf', value: -Infinity },
    { line: 'gauge 3.5 1700000000000', value: 3.5 },
    { line: 'gauge{a="b"} 7 -1', value: 7 },
    { line: 'gauge{a="b"}7', value: 7 },
    { line: '  gauge\t2  ', value: 2 },
    { line: 'gauge 2\r', value: 2 },
  ])('values and timestamps: $line', ({ line, value }) => {
    expect(parsePrometheusText(line).map((sample) => sample.value)).toEqual([value]);
  });

  it('reads NaN values', () => {
    const [sample] = parsePrometheusText('gauge NaN');
    expect(sample?.value).toBeNaN();
  });

  it.each([
    'gauge',
    'gauge abc',
    'gauge 1 2 3',
    'gauge 1 1.5',
    'gauge1.5',
    'gauge{a="unterminated} 1',
    'gauge{a=unquoted} 1',
    'gauge{a="1" b="2"} 1',
    'gauge{1a="x"} 1',
    '{a="b"} 1',
    '# TYPE gauge gauge',
  ])('skips the malformed line %s', (line) => {
    expect(parsePrometheusText(`${line}\nok 1`)).toEqual([{ name: 'ok', labels: {}, value: 1 }]);
  });
});

const RECONCILE = [
  'controller_runtime_reconcile_time_seconds_bucket{controller="cloneset",le="0.005"} 1',
  'controller_runtime_reconcile_time_seconds_bucket{controller="cloneset",le="0.01"} 3',
  'controller_runtime_reconcile_time_seconds_bucket{controller="cloneset",le="0.1"} 8',
  'controller_runtime_reconcile_time_seconds_bucket{controller="cloneset",le="+Inf"} 10',
  'controller_runtime_reconcile_time_seconds_sum{controller="cloneset"} 0.9',
  'controller_runtime_reconcile_time_seconds_count{controller="cloneset"} 10',
  'controller_runtime_reconcile_time_seconds_bucket{controller="sidecarset",le="0.005"} 4',
  'controller_runtime_reconcile_time_seconds_bucket{controller="sidecarset",le="0.01"} 4',
  'controller_runtime_reconcile_time_seconds_bucket{controller="sidecarset",le="0.1"} 5',
  'controller_runtime_reconcile_time_seconds_bucket{controller="sidecarset",le="+Inf"} 5',
].join('\n');

describe('histogramBuckets', () => {
  const samples = parsePrometheusText(RECONCILE);

  it('sums the buckets of every series per le, sorted by le', () => {
    expect(histogramBuckets(samples, 'controller_runtime_reconcile_time_seconds')).toEqual(
      buckets([0.005, 5], [0.01, 7], [0.1, 13], [Infinity, 15]),
    );
  });

  it('keeps only the series that carry the filter labels', () => {
    expect(
      histogramBuckets(samples, 'controller_runtime_reconcile_time_seconds', { controller: 'sidecarset' }),
    ).toEqual(buckets([0.005, 4], [0.01, 4], [0.1, 5], [Infinity, 5]));
  });

  it('is empty for an unknown histogram or filter', () => {
    expect(histogramBuckets(samples, 'workqueue_depth')).toEqual([]);
    expect(histogramBuckets(samples, 'controller_runtime_reconcile_time_seconds', { controller: 'x' })).toEqual([]);
  });

  it('ignores bucket series without a numeric le', () => {
    const odd = parsePrometheusText('h_bucket{le="x"} 1\nh_bucket 2\nh_bucket{le="1"} 3');
    expect(histogramBuckets(odd, 'h')).toEqual(buckets([1, 3]));
  });
});

describe('subtractBuckets', () => {
  it('yields the increase per bucket, counting a bucket missing before from 0', () => {
    const before = buckets([0.1, 2], [Infinity, 3]);
    const after = buckets([0.01, 1], [0.1, 5], [Infinity, 9]);
    expect(subtractBuckets(after, before)).toEqual(buckets([0.01, 1], [0.1, 3], [Infinity, 6]));
  });

  it('is the same buckets when nothing came before', () => {
    expect(subtractBuckets(buckets([1, 2], [Infinity, 2]), [])).toEqual(buckets([1, 2], [Infinity, 2]));
  });
});

describe('histogramQuantile', () => {
  // 100 observations: 10 ≤ 0.1, 50 ≤ 0.5, 90 ≤ 1, all ≤ +Inf.
  const sample = buckets([0.1, 10], [0.5, 50], [1, 90], [Infinity, 100]);

  it.each([
    { q: 0.05, expected: 0.05 }, // first bucket: interpolates from 0
    { q: 0.1, expected: 0.1 },
    { q: 0.3, expected: 0.3 }, // 0.1 + 0.4 × 20/40
    { q: 0.5, expected: 0.5 },
    { q: 0.7, expected: 0.75 }, // 0.5 + 0.5 × 20/40
    { q: 0.95, expected: 1 }, // in +Inf: the highest finite bound
    { q: 1, expected: 1 },
    { q: -0.1, expected: -Infinity },
    { q: 1.1, expected: Infinity },
  ])('q $q ⇒ $expected', ({ q, expected }) => {
    expect(histogramQuantile(q, sample)).toBeCloseTo(expected, 10);
  });

  it.each([
    { name: 'no observations', input: buckets([0.1, 0], [Infinity, 0]) },
    { name: 'no +Inf bucket', input: buckets([0.1, 1], [1, 2]) },
    { name: 'only the +Inf bucket', input: buckets([Infinity, 4]) },
    { name: 'no buckets', input: [] },
    { name: 'q 0 on an empty first bucket', input: buckets([0.1, 0], [Infinity, 3]), q: 0 },
    { name: 'q NaN', input: sample, q: NaN },
  ])('is undefined for $name', ({ input, q }) => {
    expect(histogramQuantile(q ?? 0.5, input)).toBeUndefined();
  });

  it('returns the upper bound of a first bucket at or below 0', () => {
    expect(histogramQuantile(0.5, buckets([-1, 5], [1, 8], [Infinity, 10]))).toBe(-1);
  });

  it('sorts, merges equal bounds and forces monotonic counts like PromQL', () => {
    const unordered = buckets([Infinity, 100], [0.5, 30], [0.1, 10], [0.5, 20], [1, 40]);
    // Merged: 0.1→10, 0.5→50, 1→50 (forced up from 40), +Inf→100; rank 30 is in (0.1, 0.5].
    expect(histogramQuantile(0.3, unordered)).toBeCloseTo(0.3, 10);
    expect(histogramQuantile(0.6, unordered)).toBe(1);
  });

  it('agrees with histogramBuckets and subtractBuckets over a window', () => {
    const before = histogramBuckets(parsePrometheusText(RECONCILE), 'controller_runtime_reconcile_time_seconds');
    const after = buckets([0.005, 5], [0.01, 7], [0.1, 113], [Infinity, 115]);
    // The window added 100 observations, all in (0.01, 0.1]: p50 is the middle of that bucket.
    expect(histogramQuantile(0.5, subtractBuckets(after, before))).toBeCloseTo(0.055, 10);
  });
});

describe('gaugeMax and counterSum', () => {
  const samples = parsePrometheusText(
    [
      'nodejs_heap_size_used_bytes{pid="1"} 100',
      'nodejs_heap_size_used_bytes{pid="2"} 300',
      'nodejs_heap_size_used_bytes{pid="3"} NaN',
      'reconcile_total{controller="a"} 4',
      'reconcile_total{controller="b"} 6',
      'only_nan NaN',
    ].join('\n'),
  );

  it.each([
    { name: 'nodejs_heap_size_used_bytes', filter: {}, max: 300, sum: 400 },
    { name: 'nodejs_heap_size_used_bytes', filter: { pid: '1' }, max: 100, sum: 100 },
    { name: 'reconcile_total', filter: {}, max: 6, sum: 10 },
    { name: 'missing_total', filter: {}, max: undefined, sum: undefined },
    { name: 'only_nan', filter: {}, max: undefined, sum: undefined },
  ])('$name $filter ⇒ max $max, sum $sum', ({ name, filter, max, sum }) => {
    expect(gaugeMax(samples, name, filter)).toBe(max);
    expect(counterSum(samples, name, filter)).toBe(sum);
  });

  it('reads every series without a filter', () => {
    expect(gaugeMax(samples, 'reconcile_total')).toBe(6);
    expect(counterSum(samples, 'reconcile_total')).toBe(10);
  });
});
