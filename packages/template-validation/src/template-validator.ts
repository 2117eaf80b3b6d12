/**
 * Validates what a workload would create (a pod, and a claim per claim template) with server-side
 * dry runs, and answers in the workload's field paths. Used by the validating webhooks at admission
 * and by the controllers before they create the first pod of a template (for when the webhook was
 * skipped: down, `failurePolicy: Ignore`, or not installed).
 */
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import type { StatusCause } from '@kruise-ts/controller-runtime';

import { dryRunOutcome } from './dry-run.ts';
import type { DryRunOutcome, DryRunWriter } from './dry-run.ts';
import type { FieldError } from './field-error.ts';
import type { FieldMapping } from './field-mapping.ts';
import { digestOf, VerdictCache } from './verdict-cache.ts';
import type { VerdictCacheOptions } from './verdict-cache.ts';

/** What to dry-run, and how its fields map back to the workload. */
export interface ValidationTarget {
  readonly pod: Pod;
  readonly podMapping: FieldMapping;
  /** Causes of the pod's dry run that are not errors of the workload (at the pod's own field paths), e.g. a placeholder the builder added. */
  readonly ignorePodCause?: ((cause: StatusCause) => boolean) | undefined;
  readonly claims: readonly { readonly claim: PersistentVolumeClaim; readonly mapping: FieldMapping }[];
  /**
   * Whether a refusal by admission (403: Pod Security, a quota) becomes a warning: true by default,
   * since the dry run ran where the pods will; false when it ran elsewhere (SidecarSet's fake pod in
   * the controllers' namespace), where such a refusal says nothing about the pods the user gets.
   */
  readonly warnOnRefusal?: boolean | undefined;
}

/**
 * `valid`; `invalid` with every error at its workload path; `unknown` when the API server could not
 * answer (never cached: the next check asks again). `warnings` carry admission refusals that are
 * about the namespace, not the template (Pod Security, quotas): a pod would be refused today.
 */
export type TemplateVerdict =
  | { readonly kind: 'valid'; readonly warnings: readonly string[] }
  | { readonly kind: 'invalid'; readonly errors: readonly FieldError[]; readonly warnings: readonly string[] }
  | { readonly kind: 'unknown'; readonly message: string };

export interface TemplateValidatorOptions extends VerdictCacheOptions {
  readonly dryRun: DryRunWriter;
}

interface Checked {
  readonly outcome: DryRunOutcome;
  readonly mapping: FieldMapping;
  readonly what: string;
  readonly ignore?: ((cause: StatusCause) => boolean) | undefined;
}

function errorsOf(checked: readonly Checked[]): FieldError[] {
  return checked.flatMap(({ outcome, mapping, ignore }) =>
    outcome.kind === 'invalid'
      ? outcome.causes
          .filter((cause) => ignore?.(cause) !== true)
          .map((cause) => ({
            field: mapping(cause.field ?? ''),
            reason: cause.reason,
            message: cause.message ?? outcome.message,
          }))
      : [],
  );
}

/** The verdict of the dry runs' outcomes: invalid beats unavailable (the errors are certain), unavailable beats valid. */
export function verdictOf(checked: readonly Checked[]): TemplateVerdict {
  const warnings = checked.flatMap(({ outcome, what }) =>
    outcome.kind === 'refused' ? [`${what} would be refused: ${outcome.message}`] : [],
  );
  const errors = errorsOf(checked);
  if (errors.length > 0) {
    return { kind: 'invalid', errors, warnings };
  }
  const unavailable = checked.find(({ outcome }) => outcome.kind === 'unavailable');
  if (unavailable?.outcome.kind === 'unavailable') {
    return { kind: 'unknown', message: `the dry run of ${unavailable.what} failed: ${unavailable.outcome.message}` };
  }
  return { kind: 'valid', warnings };
}

export class TemplateValidator {
  readonly #dryRun: DryRunWriter;
  readonly #cache: VerdictCache<TemplateVerdict>;
  /** A target's digest, once per target object (controllers pass the same one while their workload is unchanged). */
  readonly #digests = new WeakMap<ValidationTarget, string>();
  #dryRuns = 0;

  constructor(options: TemplateValidatorOptions) {
    this.#dryRun = options.dryRun;
    this.#cache = new VerdictCache(options);
  }

  /** The verdict on `target`, from the cache when the same pod and claims were checked recently. */
  async validate(target: ValidationTarget, signal: AbortSignal): Promise<TemplateVerdict> {
    const key = this.#digestOf(target);
    const cached = this.#cache.get(key);
    if (cached !== undefined) {
      return cached;
    }
    this.#dryRuns += 1;
    const checks = [
      dryRunOutcome(() => this.#dryRun.createPod(target.pod, signal), signal).then((outcome) => ({
        outcome,
        mapping: target.podMapping,
        what: 'a pod of this template',
        ignore: target.ignorePodCause,
      })),
      ...target.claims.map(({ claim, mapping }) =>
        dryRunOutcome(() => this.#dryRun.createClaim(claim, signal), signal).then((outcome) => ({
          outcome,
          mapping,
          what: `the claim ${claim.metadata?.name ?? ''}`,
        })),
      ),
    ];
    const checked = await Promise.all(checks);
    const verdict = verdictOf(
      target.warnOnRefusal === false ? checked.filter(({ outcome }) => outcome.kind !== 'refused') : checked,
    );
    if (verdict.kind !== 'unknown') {
      this.#cache.set(key, verdict);
    }
    return verdict;
  }

  /** How many targets were sent to the API server (not answered from the cache). */
  get dryRuns(): number {
    return this.#dryRuns;
  }

  #digestOf(target: ValidationTarget): string {
    let digest = this.#digests.get(target);
    if (digest === undefined) {
      digest = digestOf({ pod: target.pod, claims: target.claims.map(({ claim }) => claim) });
      this.#digests.set(target, digest);
    }
    return digest;
  }
}
