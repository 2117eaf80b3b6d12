/**
 * Helpers of the chart tests (imported by this package's tests only).
 *
 * STOP: this file is the package's public API.
 */
export {
  CHART_DIRECTORY,
  evaluateChartGates,
  readChartApps,
  readChartGateTable,
  REPOSITORY_ROOT,
} from './chart-files.ts';
export type { ChartApp, ChartGateDependency, ChartGateTable, ChartValidationWebhook } from './chart-files.ts';
export { restrictedViolations } from './pod-security-restricted.ts';
