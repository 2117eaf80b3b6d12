import { spawn } from 'node:child_process';
import { once } from 'node:events';

import { describe, expect, it } from 'vitest';

import { parseProcStat, processTree, signalNodeProcesses } from './process-sampler.ts';

describe('parseProcStat', () => {
  it('reads the fields after a command name with spaces and parentheses', () => {
    const fields = [
      'S',
      '7',
      ...Array.from({ length: 9 }, () => '0'),
      '10',
      '20',
      '30',
      '40',
      ...Array.from({ length: 6 }, () => '0'),
      '25',
    ];
    expect(parseProcStat(42, `42 (a (b) c) ${fields.join(' ')}`)).toEqual({
      pid: 42,
      ppid: 7,
      cpuTicks: 100,
      rssBytes: 25 * 4096,
    });
  });

  it('gives up on text without a command name', () => {
    expect(parseProcStat(1, 'garbage')).toBeUndefined();
  });
});

describe('processTree', () => {
  it('is the root and its descendants only', () => {
    const stat = (pid: number, ppid: number): { pid: number; ppid: number; cpuTicks: number; rssBytes: number } => ({
      pid,
      ppid,
      cpuTicks: 0,
      rssBytes: 0,
    });
    const tree = processTree(10, [stat(1, 0), stat(10, 1), stat(11, 10), stat(12, 11), stat(13, 1)]);
    expect(tree.map((entry) => entry.pid).sort()).toEqual([10, 11, 12]);
  });
});

describe('signalNodeProcesses', () => {
  it('signals the Node.js process under a shell (whose command name is "MainThread") and spares the shell', async () => {
    const script =
      "process.on('SIGUSR2', () => { process.stdout.write('signalled\\n'); process.exit(0); }); process.stdout.write('ready\\n'); setInterval(() => undefined, 1000);";
    // `; true` keeps sh from exec-ing node, so the tree is a shell with a Node.js child.
    const shell = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}; true`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    shell.stdout.setEncoding('utf8');
    shell.stdout.on('data', (chunk: string) => {
      output += chunk;
    });
    const exited = once(shell, 'exit');
    try {
      await expect.poll(() => output, { timeout: 10_000 }).toContain('ready');
      expect(await signalNodeProcesses(shell.pid ?? 0, 'SIGUSR2')).toBe(1);
      const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(output).toContain('signalled');
    } finally {
      shell.kill('SIGKILL');
    }
  });
});
