import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { isProcessAlive } from './process-liveness.ts';

const POLL_MS = 500;

/**
 * Runs `fn` while holding a lock directory, so that two processes (a test run and `cluster:build`,
 * say) never build the same binary at once. A lock whose owner process is gone is taken over.
 */
export async function withDirectoryLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(lockDir), { recursive: true });
  await acquire(lockDir);
  try {
    return await fn();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

async function acquire(lockDir: string): Promise<void> {
  for (;;) {
    try {
      await mkdir(lockDir);
      await writeFile(path.join(lockDir, 'owner'), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
    }
    const owner = Number(await readFile(path.join(lockDir, 'owner'), 'utf8').catch(() => 'NaN'));
    if (Number.isInteger(owner) && !isProcessAlive(owner)) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    await sleep(POLL_MS);
  }
}
