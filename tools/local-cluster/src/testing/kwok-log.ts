/**
 * kwok's log for one namespace, for the message of a wait that timed out: what the fake kubelet did
 * to the namespace's pods (each status patch, delete, and failed stage play with its error). The log
 * is `<dir of the kubeconfig>/logs/kwok.log`, for the test run's cluster and for `npm run
 * cluster:up`'s alike; a cluster without that file gives an empty list.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { inject } from 'vitest';
import { z } from 'zod';

import './provided-context.ts';

const kwokLine = z.looseObject({
  time: z.string(),
  msg: z.string(),
  pod: z.string().optional(),
  stage: z.string().optional(),
  err: z.string().optional(),
});

/** The last `limit` lines (default 60) about pods of `namespace`: `time msg pod [stage] [err]`. */
export async function kwokLogOf(namespace: string, limit = 60): Promise<string[]> {
  const file = path.join(path.dirname(inject('kubeconfigPath')), 'logs', 'kwok.log');
  const text = await readFile(file, 'utf8').catch(() => '');
  const prefix = `${namespace}/`;
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.includes(prefix)) {
      continue;
    }
    const parsed = kwokLine.safeParse(safeJson(raw));
    if (parsed.success && parsed.data.pod?.startsWith(prefix) === true) {
      const { time, msg, pod, stage, err } = parsed.data;
      lines.push(
        [time.slice(11, 23), msg, pod, stage, err].filter((part) => part !== undefined && part !== '').join(' '),
      );
    }
  }
  return lines.slice(-limit);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
