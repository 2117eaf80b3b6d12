/**
 * Whether the CloneSet validation webhook is in the path of a namespace's creates: a server-side dry
 * run of a CloneSet whose container name no pod may have. Only our webhook refuses it (the CRD's
 * schema does not check container names), so its refusal proves the API server calls it, and its
 * admission proves that nothing does (the baseline).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Client } from '@kruise-ts/controller-runtime';

import { cloneSetResource } from '../measure/workloads.ts';
import { BAD_CONTAINER_NAME, loopCloneSet } from './cloneset.ts';

/** What a dry run of the bad CloneSet got. */
export type ProbeOutcome =
  { readonly verdict: 'denied' | 'admitted' } | { readonly verdict: 'error'; readonly message: string };

/** The outcome of the dry run, from its error (undefined: admitted). */
export function probeOutcome(error: unknown, webhookName: string): ProbeOutcome {
  if (error === undefined) {
    return { verdict: 'admitted' };
  }
  const message = error instanceof Error ? error.message : JSON.stringify(error);
  return message.includes(`admission webhook "${webhookName}" denied`)
    ? { verdict: 'denied' }
    : { verdict: 'error', message };
}

async function dryRunBadCloneSet(client: Client, namespace: string, webhookName: string): Promise<ProbeOutcome> {
  const error = await client
    .create(cloneSetResource, loopCloneSet('admission-probe', namespace, BAD_CONTAINER_NAME), { dryRun: true })
    .then(
      () => undefined,
      (failure: unknown) => failure ?? new Error('rejected without a reason'),
    );
  return probeOutcome(error, webhookName);
}

function describe(outcome: ProbeOutcome): string {
  return outcome.verdict === 'error' ? `failed: ${outcome.message}` : outcome.verdict;
}

/**
 * Waits until the webhook refuses the bad CloneSet: the launcher writes its configuration once its
 * server listens, and the API server picks a new configuration up within a second or so.
 */
export async function waitUntilWebhookDenies(
  client: Client,
  input: { readonly namespace: string; readonly webhookName: string; readonly timeoutMs: number },
): Promise<number> {
  const started = performance.now();
  let last: ProbeOutcome = { verdict: 'admitted' };
  while (performance.now() - started < input.timeoutMs) {
    last = await dryRunBadCloneSet(client, input.namespace, input.webhookName);
    if (last.verdict === 'denied') {
      return (performance.now() - started) / 1000;
    }
    await sleep(250);
  }
  throw new Error(
    `the webhook ${input.webhookName} did not refuse a CloneSet with container ${BAD_CONTAINER_NAME} in ${input.namespace} within ${String(input.timeoutMs / 1000)} s (last dry run: ${describe(last)})`,
  );
}

/** Fails unless the bad CloneSet is admitted: no webhook may be in the baseline's path. */
export async function assertNoWebhook(
  client: Client,
  input: { readonly namespace: string; readonly webhookName: string },
): Promise<void> {
  const outcome = await dryRunBadCloneSet(client, input.namespace, input.webhookName);
  if (outcome.verdict !== 'admitted') {
    throw new Error(
      `the baseline's namespace ${input.namespace} is not free of webhooks: a dry run of a CloneSet with container ${BAD_CONTAINER_NAME} was ${describe(outcome)}`,
    );
  }
}
