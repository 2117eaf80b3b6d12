/**
 * The rollout plot of one result file: available (solid) and updated (dashed) pods over the seconds
 * after the change, one colour per contender. A self-contained SVG (no fonts, scripts or styles
 * from elsewhere), so it renders the same in a README, a browser and a CI artifact.
 */
import type { BenchResult, StatusSample } from '../result.ts';
import { groupThousands } from './format.ts';
import { niceTicks, tickLabel } from './ticks.ts';

const WIDTH = 900;
const HEIGHT = 420;
// The legend takes the right-hand side of the image.
const PLOT = { left: 72, top: 48, right: 680, bottom: 360 } as const;
const LEGEND_LEFT = 704;
const LEGEND_ROW = 22;

/** Points per curve: enough for a smooth line at 900 px, few enough that a 10,000-pod run stays small. */
export const MAX_POINTS = 400;

// Okabe–Ito: told apart with the common forms of colour blindness (its yellow is left out: unreadable on white).
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'] as const;
const DASHES = '6 4';

/** The contender's colour (the palette repeats after seven contenders). */
export function contenderColour(index: number): string {
  return PALETTE[index % PALETTE.length] ?? PALETTE[0];
}

const XML_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&apos;'],
]);

/** Text safe in XML character data and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ENTITIES.get(char) ?? char);
}

/**
 * At most `max` items, evenly spaced by index, always keeping the first and the last (the start of
 * the rollout and its end state).
 */
export function downsample<T>(items: readonly T[], max: number): readonly T[] {
  const limit = Math.max(2, Math.floor(max));
  if (items.length <= limit) {
    return items;
  }
  const kept: T[] = [];
  for (let index = 0; index < limit; index += 1) {
    // (n − 1)/(limit − 1) > 1, so the rounded indexes are distinct and increasing.
    const item = items[Math.round((index * (items.length - 1)) / (limit - 1))];
    if (item !== undefined) {
      kept.push(item);
    }
  }
  return kept;
}

interface Scale {
  readonly maxT: number;
  readonly maxPods: number;
}

/** A coordinate with one decimal (a tenth of a pixel is finer than any screen). */
function coordinate(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function xOf(t: number, scale: Scale): number {
  return PLOT.left + (t / scale.maxT) * (PLOT.right - PLOT.left);
}

function yOf(pods: number, scale: Scale): number {
  return PLOT.bottom - (pods / scale.maxPods) * (PLOT.bottom - PLOT.top);
}

/** The data ranges; 1 where a range is empty, so the scales never divide by 0. */
function scaleOf(result: BenchResult): Scale {
  const samples = result.results.flatMap((contender) => contender.series);
  const maxT = samples.reduce((max, sample) => Math.max(max, sample.t), 0);
  const maxPods = samples.reduce((max, sample) => Math.max(max, sample.replicas, sample.available, sample.updated), 0);
  return { maxT: maxT > 0 ? maxT : 1, maxPods: maxPods > 0 ? maxPods : 1 };
}

function axes(scale: Scale): string[] {
  const xTicks = niceTicks(scale.maxT, 8).flatMap((t) => {
    const x = coordinate(xOf(t, scale));
    return [
      `<line x1="${x}" y1="${PLOT.top}" x2="${x}" y2="${PLOT.bottom}" stroke="#e6e6e6"/>`,
      `<text x="${x}" y="${PLOT.bottom + 18}" text-anchor="middle">${tickLabel(t)}</text>`,
    ];
  });
  const yTicks = niceTicks(scale.maxPods, 6).flatMap((pods) => {
    const y = coordinate(yOf(pods, scale));
    return [
      `<line x1="${PLOT.left}" y1="${y}" x2="${PLOT.right}" y2="${y}" stroke="#e6e6e6"/>`,
      `<text x="${PLOT.left - 8}" y="${coordinate(Number(y) + 4)}" text-anchor="end">${tickLabel(pods)}</text>`,
    ];
  });
  const middleY = (PLOT.top + PLOT.bottom) / 2;
  return [
    ...xTicks,
    ...yTicks,
    `<line x1="${PLOT.left}" y1="${PLOT.bottom}" x2="${PLOT.right}" y2="${PLOT.bottom}" stroke="#333333"/>`,
    `<line x1="${PLOT.left}" y1="${PLOT.top}" x2="${PLOT.left}" y2="${PLOT.bottom}" stroke="#333333"/>`,
    `<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 42}" text-anchor="middle">seconds after the change</text>`,
    `<text x="16" y="${middleY}" text-anchor="middle" transform="rotate(-90 16 ${middleY})">pods</text>`,
  ];
}

function polyline(points: readonly string[], colour: string, dashed: boolean): string {
  const dash = dashed ? ` stroke-dasharray="${DASHES}"` : '';
  return `<polyline fill="none" stroke="${colour}" stroke-width="2"${dash} points="${points.join(' ')}"/>`;
}

/** The contender's two curves, downsampled. */
function curves(series: readonly StatusSample[], colour: string, scale: Scale): string[] {
  const samples = downsample(series, MAX_POINTS);
  const point = (sample: StatusSample, pods: number): string =>
    `${coordinate(xOf(sample.t, scale))},${coordinate(yOf(pods, scale))}`;
  return [
    polyline(
      samples.map((sample) => point(sample, sample.available)),
      colour,
      false,
    ),
    polyline(
      samples.map((sample) => point(sample, sample.updated)),
      colour,
      true,
    ),
  ];
}

function legendEntry(row: number, label: string, line: { colour: string; dashed: boolean }): string[] {
  const y = PLOT.top + 8 + row * LEGEND_ROW;
  const dash = line.dashed ? ` stroke-dasharray="${DASHES}"` : '';
  return [
    `<line x1="${LEGEND_LEFT}" y1="${y}" x2="${LEGEND_LEFT + 28}" y2="${y}" stroke="${line.colour}" stroke-width="2"${dash}/>`,
    `<text x="${LEGEND_LEFT + 36}" y="${y + 4}">${escapeXml(label)}</text>`,
  ];
}

function legend(names: readonly string[]): string[] {
  const key = names.length + 1;
  return [
    ...names.flatMap((name, index) => legendEntry(index, name, { colour: contenderColour(index), dashed: false })),
    ...legendEntry(key, 'available', { colour: '#666666', dashed: false }),
    ...legendEntry(key + 1, 'updated', { colour: '#666666', dashed: true }),
  ];
}

/** The plot as an SVG document (ends with a newline). */
export function renderSvg(result: BenchResult): string {
  const scale = scaleOf(result);
  const title = escapeXml(`${result.settings.scenario} · ${groupThousands(result.settings.pods)} pods`);
  const body = [
    `<title>${title}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="28" text-anchor="middle" font-size="16" font-weight="bold">${title}</text>`,
    ...axes(scale),
    ...result.results.flatMap((contender, index) => curves(contender.series, contenderColour(index), scale)),
    ...legend(result.results.map((contender) => contender.contender.name)),
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12" fill="#222222">`,
    ...body.map((element) => `  ${element}`),
    '</svg>',
    '',
  ].join('\n');
}
