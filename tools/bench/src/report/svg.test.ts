import { describe, expect, it } from 'vitest';

import type { BenchResult, ContenderResult } from '../result.ts';
import { contenderColour, downsample, escapeXml, MAX_POINTS, renderSvg } from './svg.ts';
import { FIXTURE, rolloutSeries } from './test-fixture.ts';

/**
 * A minimal well-formedness check (there is no XML parser among the dependencies): every tag is
 * closed in order, and no raw `<` or bare `&` is left in text or attribute values.
 */
function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  for (const match of xml.matchAll(/<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g)) {
    const [, closing = '', name = '', , selfClosing = ''] = match;
    if (closing !== '') {
      const expected = open.pop();
      if (expected !== name) {
        problems.push(`</${name}> closes <${expected ?? 'nothing'}>`);
      }
    } else if (selfClosing === '') {
      open.push(name);
    }
  }
  problems.push(...open.map((name) => `<${name}> is never closed`));
  const outsideTags = xml.replace(/<[^<>]*>/g, '');
  if (/[<>]/.test(outsideTags)) {
    problems.push('a raw < or > outside a tag');
  }
  if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(xml)) {
    problems.push('a bare &');
  }
  const tags = xml.match(/<[^>]*>/g) ?? [];
  const malformed = tags.filter((tag) => !/^<\/?[a-zA-Z][\w:-]*(?:\s+[\w:-]+="[^"<]*")*\s*\/?>$/.test(tag));
  problems.push(...malformed.map((tag) => `malformed tag ${tag}`));
  return problems;
}

/** The `points` of every polyline, as [x, y] pairs. */
function polylines(svg: string): { stroke: string; dashed: boolean; points: [number, number][] }[] {
  return [...svg.matchAll(/<polyline ([^>]*)\/>/g)].map(([, attributes = '']) => ({
    stroke: /stroke="([^"]*)"/.exec(attributes)?.[1] ?? '',
    dashed: attributes.includes('stroke-dasharray'),
    points: (/points="([^"]*)"/.exec(attributes)?.[1] ?? '')
      .split(' ')
      .filter((pair) => pair !== '')
      .map((pair) => {
        const [x = NaN, y = NaN] = pair.split(',').map(Number);
        return [x, y];
      }),
  }));
}

function contender(index: number): ContenderResult {
  return FIXTURE.results[index] ?? expect.fail(`fixture has no contender ${String(index)}`);
}

describe('xmlProblems (the test helper)', () => {
  it.each([
    { xml: '<a><b/></a>', problems: [] },
    { xml: '<a><b></a>', problems: ['</a> closes <b>', '<a> is never closed'] },
    { xml: '<a>x & y</a>', problems: ['a bare &'] },
    { xml: '<a>1 < 2</a>', problems: ['a raw < or > outside a tag', 'malformed tag < 2</a>'] },
  ])('$xml ⇒ $problems', ({ xml, problems }) => {
    expect(xmlProblems(xml)).toEqual(problems);
  });
});

describe('renderSvg', () => {
  const svg = renderSvg(FIXTURE);

  it('is a well-formed, self-contained SVG document of 900×420', () => {
    expect(xmlProblems(svg)).toEqual([]);
    expect(
      svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="900" height="420" viewBox="0 0 900 420"'),
    ).toBe(true);
    expect(svg.endsWith('</svg>\n')).toBe(true);
    expect(svg).not.toMatch(/<script|<style|@import|href=|url\(/);
  });

  it('titles the plot with the scenario and the pods', () => {
    expect(svg).toContain('<title>recreate · 1,000 pods</title>');
    expect(svg).toContain('font-weight="bold">recreate · 1,000 pods</text>');
  });

  it('draws an available (solid) and an updated (dashed) curve per contender, in its own colour', () => {
    const lines = polylines(svg);
    expect(lines.map(({ stroke, dashed }) => ({ stroke, dashed }))).toEqual([
      { stroke: '#0072B2', dashed: false },
      { stroke: '#0072B2', dashed: true },
      { stroke: '#D55E00', dashed: false },
      { stroke: '#D55E00', dashed: true },
      { stroke: '#009E73', dashed: false },
      { stroke: '#009E73', dashed: true },
    ]);
    expect(lines.map((line) => line.points.length)).toEqual([11, 11, 6, 6, 0, 0]);
  });

  it('maps t and pods onto the plot area: 0 at the bottom left, the maxima at the top and right', () => {
    const [available] = polylines(svg);
    // The native baseline's last sample (600 s) is the longest; 1,000 pods the highest.
    expect(available?.points[0]).toEqual([72, 360]);
    expect(available?.points.at(-1)).toEqual([84.5, 48]);
    const native = polylines(svg)[2];
    expect(native?.points.at(-1)).toEqual([680, 48]);
  });

  it('labels the axes with nice ticks', () => {
    const labels = [
      ...svg.matchAll(/<text [^>]*text-anchor="(?:middle|end)"(?: transform="[^"]*")?>([^<]*)<\/text>/g),
    ].map(([, label]) => label);
    expect(labels).toEqual([
      ...['0', '100', '200', '300', '400', '500', '600'],
      ...['0', '200', '400', '600', '800', '1,000'],
      'seconds after the change',
      'pods',
    ]);
  });

  it('lists every contender in the legend, escaped, and the line styles', () => {
    const legend = [...svg.matchAll(/<text x="740" y="\d+">([^<]*)<\/text>/g)].map(([, label]) => label);
    expect(legend).toEqual(['kruise-ts', 'native-deployment', 'other|ctl &lt;x&amp;y&gt;', 'available', 'updated']);
  });

  it('keeps a 10,000-pod run small: at most 400 points per curve, the first and the last kept', () => {
    const long: BenchResult = {
      ...FIXTURE,
      settings: { ...FIXTURE.settings, pods: 10_000 },
      results: [{ ...contender(0), series: rolloutSeries(10_000, 900, 10_000) }],
    };
    const large = renderSvg(long);
    expect(xmlProblems(large)).toEqual([]);
    const [available, updated] = polylines(large);
    expect(available?.points).toHaveLength(MAX_POINTS);
    expect(updated?.points).toHaveLength(MAX_POINTS);
    expect(available?.points[0]).toEqual([72, 360]);
    expect(available?.points.at(-1)).toEqual([680, 48]);
    expect(large.length).toBeLessThan(30_000);
  });

  it('draws an empty run without dividing by zero', () => {
    const empty = renderSvg({ ...FIXTURE, results: [] });
    expect(xmlProblems(empty)).toEqual([]);
    expect(empty).not.toContain('NaN');
    expect(empty).not.toContain('<polyline');
    const flat = renderSvg({
      ...FIXTURE,
      results: [{ ...contender(0), series: [{ t: 0, replicas: 0, updated: 0, ready: 0, available: 0 }] }],
    });
    expect(flat).not.toContain('NaN');
    expect(polylines(flat)[0]?.points).toEqual([[72, 360]]);
  });
});

describe('downsample', () => {
  const items = Array.from({ length: 1001 }, (_, index) => index);

  it.each([
    { length: 0, max: 400, expected: [] },
    { length: 3, max: 400, expected: [0, 1, 2] },
    { length: 11, max: 3, expected: [0, 5, 10] },
    { length: 10, max: 4, expected: [0, 3, 6, 9] },
    { length: 5, max: 1, expected: [0, 4] },
  ])('$length items to at most $max ⇒ $expected', ({ length, max, expected }) => {
    expect(downsample(items.slice(0, length), max)).toEqual(expected);
  });

  it('keeps the first and the last and stays in order', () => {
    const kept = downsample(items, 400);
    expect(kept).toHaveLength(400);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(1000);
    expect(kept.every((item, index) => index === 0 || item > (kept[index - 1] ?? Infinity))).toBe(true);
  });
});

describe('escapeXml and contenderColour', () => {
  it('escapes the five XML specials', () => {
    expect(escapeXml(`a&b<c>"d"'e'`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;');
  });

  it('gives seven contenders distinct colours, then repeats', () => {
    const colours = Array.from({ length: 8 }, (_, index) => contenderColour(index));
    expect(new Set(colours.slice(0, 7)).size).toBe(7);
    expect(colours[7]).toBe(colours[0]);
  });
});
