/**
 * The benchmark tool: scenarios on the local control plane, contenders (ours, external commands, the
 * native Deployment controller), measurements from the API server's audit log, /proc and /metrics,
 * and the reports. The command line is src/cli.ts (`npm run bench`).
 */
export { BenchFlagError, contenderFromFlag, parseBenchCommand } from './bench-flags.ts';
export type { BenchCommand } from './bench-flags.ts';
export {
  externalContender,
  expandPlaceholders,
  kruiseTsContender,
  kruiseTsPerAppContender,
} from './contenders/command-contender.ts';
export type { Contender, ContenderContext, RunningContender } from './contenders/contender.ts';
export { nativeContender } from './contenders/native-contender.ts';
export { runBench } from './run/run-bench.ts';
export type { BenchOutput, BenchRunOptions } from './run/run-bench.ts';
export { SCENARIO_NAMES } from './result.ts';
export type * from './result.ts';
export * from './collect/index.ts';
export * from './report/index.ts';
