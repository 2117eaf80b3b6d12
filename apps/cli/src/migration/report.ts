/** What `migrate` prints: the plan, one line per step, and where it stopped when it had to. */
import type { CloneSetManifest, LabelSelector } from './objects.ts';
import type { Replicas } from './plan.ts';

/** `cloneset.apps.kruise.io/web` and `deployment.apps/web`, as kubectl prints changed objects. */
export interface DisplayNames {
  readonly cloneSet: string;
  readonly deployment: string;
}

export function stepLine(
  names: DisplayNames,
  progress: {
    readonly step: number;
    readonly steps: number;
    readonly ready: number;
    readonly target: number;
    readonly deployment: number;
  },
): string {
  return `step ${String(progress.step)}/${String(progress.steps)}: ${names.cloneSet} ${String(progress.ready)}/${String(progress.target)} ready, ${names.deployment} ${String(progress.deployment)}`;
}

/** The steps as `--dry-run` shows them, before any is taken. */
export function plannedStepLines(names: DisplayNames, steps: readonly Replicas[], target: number): string[] {
  return steps.map((step, index) =>
    stepLine(names, {
      step: index + 1,
      steps: steps.length,
      ready: step.cloneSet,
      target,
      deployment: step.deployment,
    }),
  );
}

export function planHeader(
  names: DisplayNames,
  plan: { readonly target: number; readonly maxSurge: number; readonly available: number },
): string {
  const pace = plan.maxSurge === 1 ? 'one at a time' : `up to ${String(plan.maxSurge)} at a time`;
  return `moving ${String(plan.target)} pods from ${names.deployment} to ${names.cloneSet}, ${pace}, never fewer than ${String(plan.available)} available`;
}

/** The CloneSet `--dry-run` would create, in a few lines. */
export function manifestSummary(manifest: CloneSetManifest, display: string): string[] {
  const { spec } = manifest;
  const containers = spec.template.spec.containers
    .map((container) => `${container.name}=${container.image ?? '(no image)'}`)
    .join(', ');
  const counts = [
    ['minReadySeconds', spec.minReadySeconds],
    ['revisionHistoryLimit', spec.revisionHistoryLimit],
    ['progressDeadlineSeconds', spec.progressDeadlineSeconds],
  ].filter(([, value]) => value !== undefined);
  const { type, maxSurge, maxUnavailable } = spec.updateStrategy;
  return [
    `${display} would be created with 0 replicas:`,
    `  selector: ${selectorString(spec.selector)}`,
    `  containers: ${containers}`,
    ...(counts.length === 0
      ? []
      : [`  ${counts.map(([key, value]) => `${String(key)}: ${String(value)}`).join(', ')}`]),
    `  updateStrategy: ${type}${maxSurge === undefined ? '' : `, maxSurge ${String(maxSurge)}`}${maxUnavailable === undefined ? '' : `, maxUnavailable ${String(maxUnavailable)}`}`,
  ];
}

/** A label selector as kubectl writes one: `app=web,tier in (a,b)`. */
export function selectorString(selector: LabelSelector): string {
  const labels = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`);
  const expressions = (selector.matchExpressions ?? []).map((expression) => {
    const values = expression.values ?? [];
    switch (expression.operator) {
      case 'Exists':
        return expression.key;
      case 'DoesNotExist':
        return `!${expression.key}`;
      default:
        return `${expression.key} ${expression.operator.toLowerCase()} (${values.join(',')})`;
    }
  });
  const all = [...labels, ...expressions];
  return all.length === 0 ? '(everything)' : all.join(',');
}

export function doneLines(
  names: DisplayNames,
  finish: { readonly target: number; readonly deleteHint: string },
): string[] {
  return [
    `${names.deployment} migrated to ${names.cloneSet}: ${String(finish.target)} pods`,
    `${names.deployment} is kept with 0 replicas; delete it with: ${finish.deleteHint}`,
  ];
}

/** `1 pod`, `3 pods`. */
export function podCount(count: number): string {
  return `${String(count)} ${count === 1 ? 'pod' : 'pods'}`;
}

/** A duration as Go and kubectl print one: `10m0s`, `1h30m0s`, `2.5s`. */
export function formatDuration(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = (ms % 60_000) / 1000;
  const secondsText = `${String(Number(seconds.toFixed(3)))}s`;
  if (hours > 0) {
    return `${String(hours)}h${String(minutes)}m${secondsText}`;
  }
  return minutes > 0 ? `${String(minutes)}m${secondsText}` : secondsText;
}
