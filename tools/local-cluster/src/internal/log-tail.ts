import { open } from 'node:fs/promises';

const TAIL_BYTES = 16 * 1024;

/** Returns the last `lines` lines of a log file, or an empty string when it cannot be read. */
export async function readLogTail(file: string, lines = 25): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, size - length);
      const all = buffer.toString('utf8').split('\n');
      if (all.at(-1) === '') {
        all.pop();
      }
      return all.slice(-lines).join('\n');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}
