/**
 * Stops a cluster's processes once the process that owns it is gone, even when that owner was killed
 * with SIGKILL and could run no exit handler. Started detached by the owner; reads the cluster's state
 * file once a second and exits when the state file is gone or handed to another owner.
 *
 * Usage: node reaper.ts <runDir> <ownerPid>
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { stopRecordedProcesses } from './process-group.ts';
import { isProcessAlive } from './process-liveness.ts';
import { readState } from './state.ts';

const POLL_MS = 1000;

async function watchOwner(runDir: string, ownerPid: number): Promise<void> {
  for (;;) {
    const state = await readState(runDir);
    if (state?.ownerPid !== ownerPid) {
      return;
    }
    if (!isProcessAlive(ownerPid)) {
      await stopRecordedProcesses(state.components, 5000);
      return;
    }
    await sleep(POLL_MS);
  }
}

const [runDir, owner] = process.argv.slice(2);
const ownerPid = Number(owner);
if (runDir === undefined || !Number.isInteger(ownerPid)) {
  process.stderr.write('usage: reaper <runDir> <ownerPid>\n');
  process.exit(2);
}
await watchOwner(runDir, ownerPid);
