/**
 * A benchmark run: every contender, one after the other, each on a fresh control plane with the same
 * settings; then the JSON result, the Markdown table and the SVG plot.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { KUBERNETES_VERSION } from '@kruise-ts/local-cluster';

import type { Contender } from '../contenders/contender.ts';
import { renderMarkdown, renderSvg } from '../report/index.ts';
import type { BenchResult, ContenderResult, MachineInfo, RunSettings } from '../result.ts';
import type { RunScenarioOptions } from '../scenarios/scenario.ts';
import { runContender } from './run-contender.ts';

export interface BenchRunOptions {
  readonly settings: RunSettings;
  readonly scenario: RunScenarioOptions;
  readonly contenders: readonly Contender[];
  /** The command line, recorded in the result. */
  readonly command: string;
  /** Where result files go; a work directory for clusters and logs is made inside. */
  readonly outDir: string;
  readonly log: (line: string) => void;
}

/** Where a run wrote its files. */
export interface BenchOutput {
  readonly result: BenchResult;
  readonly jsonFile: string;
  readonly markdownFile: string;
  readonly svgFile: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryBytes: os.totalmem(),
    nodeVersion: process.version,
    platform: `${os.platform()}-${os.arch()}`,
  };
}

export async function runBench(options: BenchRunOptions): Promise<BenchOutput> {
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const base = `${options.settings.scenario}-${String(options.settings.pods)}-${stamp}`;
  const workDir = path.join(options.outDir, `${base}-work`);
  await mkdir(workDir, { recursive: true });
  const results: ContenderResult[] = [];
  for (const [index, contender] of options.contenders.entries()) {
    results.push(
      ...(await runContender(contender, index, {
        settings: options.settings,
        scenario: options.scenario,
        workDir,
        log: options.log,
      })),
    );
  }
  const result: BenchResult = {
    schemaVersion: 1,
    startedAt: startedAt.toISOString(),
    command: options.command,
    settings: { ...options.settings, kubernetesVersion: KUBERNETES_VERSION },
    machine: machineInfo(),
    results,
  };
  const jsonFile = path.join(options.outDir, `${base}.json`);
  const markdownFile = path.join(options.outDir, `${base}.md`);
  const svgFile = path.join(options.outDir, `${base}.svg`);
  await writeFile(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(markdownFile, renderMarkdown(result));
  await writeFile(svgFile, renderSvg(result));
  return { result, jsonFile, markdownFile, svgFile };
}
