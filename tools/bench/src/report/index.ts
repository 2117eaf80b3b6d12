/**
 * The report of a result file: a Markdown summary (figures and their ratios to the first contender,
 * requests by verb and resource) and an SVG plot of the rollout curves, both rendered from the
 * result alone.
 *
 * Named exports only, so the package's public surface stays explicit.
 */
export { renderMarkdown, TOP_REQUEST_ROWS } from './markdown.ts';
export { contenderColour, downsample, escapeXml, MAX_POINTS, renderSvg } from './svg.ts';
export { contenderRatios, figureValues, ratio, RATIO_FIGURES } from './ratios.ts';
export type { ContenderRatios, FigureValues, RatioFigure } from './ratios.ts';
export {
  formatCores,
  formatGiB,
  formatLatency,
  formatMiB,
  formatNumber,
  formatRatio,
  formatSeconds,
  groupThousands,
  MISSING,
  orMissing,
} from './format.ts';
export { escapeMarkdown, markdownTable } from './markdown-table.ts';
export type { Alignment, TableColumn } from './markdown-table.ts';
export { niceStep, niceTicks, tickLabel } from './ticks.ts';
