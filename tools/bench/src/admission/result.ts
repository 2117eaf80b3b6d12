/**
 * What an admission-latency run records: the JSON file has exactly this shape (`schemaVersion` 1),
 * and the Markdown tables are rendered from it alone.
 */
import type { ControllerMetrics, MachineInfo, WindowHistogram } from '../result.ts';
import type { MillisecondStats } from './stats.ts';

export const WEBHOOK_PHASE = 'webhook';
export const BASELINE_PHASE = 'no webhook';
export type PhaseName = typeof WEBHOOK_PHASE | typeof BASELINE_PHASE;

/** A webhook latency histogram's increase over the loop, with the bucket that holds its p99. */
export interface WebhookHistogram extends WindowHistogram {
  /** The p99 is at most this (the upper bound of the bucket holding it; null in JSON when only +Inf does). */
  readonly p99AtMostSeconds?: number;
}

/** One loop of creates, with its own launcher process and namespace. */
export interface AdmissionPhase {
  readonly name: PhaseName;
  readonly namespace: string;
  /** The launcher's command line (the flags differ between the phases in --namespace and --cloneset-validation-webhook only). */
  readonly launcherCommand: string;
  /** From the launcher's spawn until its /metrics answered. */
  readonly launcherReadySeconds: number;
  /** The webhook phase: from then until the probe CloneSet was refused by the webhook. */
  readonly webhookEffectiveSeconds?: number;
  /** The ValidatingWebhookConfigurations' webhooks (`<configuration>/<webhook>`) when the loop started. */
  readonly validatingWebhooks: readonly string[];
  /** Seconds the loop took, end to end. */
  readonly loopSeconds: number;
  /** Each create as the client timed it (request sent to response parsed). */
  readonly client: MillisecondStats;
  /** Each create as the API server's audit log timed it (received to response complete). */
  readonly server: MillisecondStats;
  /** The launcher's dry-run pod creates during the loop (the webhook's call per cache miss), server-side. */
  readonly dryRunPodCreates: MillisecondStats;
  /** kube-apiserver's `apiserver_admission_webhook_admission_duration_seconds` of the webhook's CREATE calls; absent when /metrics could not be read. */
  readonly apiServerWebhook?: WebhookHistogram;
  /** The launcher's `controller_runtime_webhook_latency_seconds` of the webhook's path (CREATE and any UPDATE). */
  readonly launcherWebhook: WebhookHistogram;
  /** The launcher's /metrics over the window, as the scenarios read them (its reconciles of the new CloneSets, the peak event-loop delay p99 of 2 s scrapes). */
  readonly launcherMetrics: ControllerMetrics;
  /** The machine's 1-minute load average when the loop started and ended (the machine is shared). */
  readonly loadAverage: { readonly before: number; readonly after: number };
}

export interface AdmissionResult {
  readonly schemaVersion: 1;
  readonly benchmark: 'admission-latency';
  readonly startedAt: string;
  readonly command: string;
  readonly settings: {
    readonly creates: number;
    readonly warmup: number;
    readonly runtime: 'bundle' | 'source';
    readonly webhookName: string;
    readonly webhookPath: string;
    readonly image: string;
    readonly kubernetesVersion: string;
    /** How the baseline differs from the webhook phase. */
    readonly baseline: string;
  };
  readonly machine: MachineInfo;
  readonly phases: readonly AdmissionPhase[];
  /** Each client-side figure of the webhook phase minus the baseline's. */
  readonly webhookAdds: Omit<MillisecondStats, 'count'>;
  /** The same, server-side (audit log). */
  readonly webhookAddsServerSide: Omit<MillisecondStats, 'count'>;
}
