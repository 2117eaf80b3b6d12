/**
 * `migrate from-openkruise`: finds what is left of OpenKruise (its webhook configurations, manager,
 * daemon and the CRDs it converts), says what it will change, and changes it in the order that never
 * leaves pod creation refused (openkruise/plan.ts). `--dry-run` only reads. A refusal writes nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { PreconditionError } from '../cli/cli-errors.ts';
import { applyChanges } from '../openkruise/apply-plan.ts';
import { discoverOpenKruise } from '../openkruise/discover.ts';
import { anythingOfOpenKruise } from '../openkruise/findings.ts';
import type { FromOpenKruiseOptions } from '../openkruise/options.ts';
import { planMigration } from '../openkruise/plan.ts';
import { foundLines, keptLines, nextLines, plannedChangeLines, rollbackLines } from '../openkruise/report.ts';
import type { CommandContext } from './command-context.ts';

export async function migrateFromOpenKruise(context: CommandContext, options: FromOpenKruiseOptions): Promise<void> {
  const cluster = await context.cluster();
  const print = (line: string): void => {
    context.io.stdout(`${line}\n`);
  };
  const findings = await discoverOpenKruise(cluster.client, options.openKruiseNamespace);
  const plan = planMigration(findings);
  if (plan.refusals.length > 0) {
    throw new PreconditionError(plan.refusals.join('\n'));
  }
  if (options.dryRun) {
    print('dry run: nothing is written');
  }
  foundLines(findings).forEach(print);
  if (options.dryRun) {
    plannedChangeLines(plan).forEach(print);
  } else {
    const now = (): number => context.io.now().getTime();
    await applyChanges(
      {
        client: cluster.client,
        print,
        now,
        sleep: (ms) => sleep(ms),
        namespace: options.openKruiseNamespace,
        timeoutMs: options.timeout,
      },
      plan.changes,
    );
  }
  keptLines(plan.kept).forEach(print);
  if (anythingOfOpenKruise(findings)) {
    nextLines().forEach(print);
    if (!options.dryRun) {
      rollbackLines(findings).forEach(print);
    }
  }
}
