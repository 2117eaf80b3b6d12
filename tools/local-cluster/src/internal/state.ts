import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { z } from 'zod';

const componentRecordSchema = z.object({
  name: z.string(),
  pid: z.number().int().positive(),
  /** Binary path, used to recognise the process again (pids are reused). */
  command: z.string(),
  logFile: z.string(),
});

const clusterStateSchema = z.object({
  name: z.string(),
  runDir: z.string(),
  /** Pid of the process that owns the cluster and stops it when it exits; null for `cluster:up`. */
  ownerPid: z.number().int().positive().nullable(),
  server: z.url(),
  kubeconfigPath: z.string(),
  startedAt: z.iso.datetime(),
  components: z.array(componentRecordSchema),
  ready: z.boolean(),
});

export type ComponentRecord = z.infer<typeof componentRecordSchema>;
export type ClusterState = z.infer<typeof clusterStateSchema>;

export function stateFile(runDir: string): string {
  return path.join(runDir, 'state.json');
}

/** Reads a cluster's state file; undefined when there is none or it cannot be parsed. */
export async function readState(runDir: string): Promise<ClusterState | undefined> {
  let text: string;
  try {
    text = await readFile(stateFile(runDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = clusterStateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the state atomically, so a reader (the reaper, `cluster:status`) never sees half a file. */
export async function writeState(state: ClusterState): Promise<void> {
  const file = stateFile(state.runDir);
  const partial = `${file}.${String(process.pid)}.tmp`;
  await writeFile(partial, `${JSON.stringify(state, null, 2)}\n`);
  await rename(partial, file);
}
