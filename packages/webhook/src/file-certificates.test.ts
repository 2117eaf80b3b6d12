import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';
import { FakeClock } from '@kruise-ts/controller-runtime/testing';
import type { ServingCertificate } from './certificate-source.ts';
import { generateCertificateAuthority, generateServingCertificate } from './certificates.ts';
import type { CertificateKeyPair } from './certificates.ts';
import { FileCertificates } from './file-certificates.ts';

const dnsNames = ['webhook.kruise-system.svc'];
let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'file-certificates-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function write(files: Readonly<Record<string, string>>): Promise<void> {
  await Promise.all(Object.entries(files).map(([name, text]) => writeFile(path.join(directory, name), text)));
}

describe('FileCertificates', async () => {
  const ca = await generateCertificateAuthority({ commonName: 'cert-manager', now: Date.now() });
  const issue = (): Promise<CertificateKeyPair> => generateServingCertificate({ ca, dnsNames, now: Date.now() });

  it('reads tls.crt, tls.key and ca.crt, and picks up a rotation at the next poll', async () => {
    const first = await issue();
    await write({ 'tls.crt': first.certPem, 'tls.key': first.keyPem, 'ca.crt': ca.certPem });
    const clock = new FakeClock();
    const stop = new AbortController();
    const source = new FileCertificates({
      directory,
      logger: createLogger({ level: 'silent' }),
      clock,
      pollIntervalMs: 5000,
    });
    const changes: ServingCertificate[] = [];
    source.onChange((certificate) => changes.push(certificate));
    await source.start(stop.signal);
    expect(source.current()).toEqual({ certPem: first.certPem, keyPem: first.keyPem, caPem: ca.certPem });

    clock.advance(5000);
    await vi.waitFor(() => {
      expect(clock.pendingTimers()).toBe(1);
    });
    expect(changes).toHaveLength(1);

    const second = await issue();
    await write({ 'tls.crt': second.certPem, 'tls.key': second.keyPem });
    clock.advance(5000);
    await vi.waitFor(() => {
      expect(changes).toHaveLength(2);
    });
    expect(source.current()).toEqual({ certPem: second.certPem, keyPem: second.keyPem, caPem: ca.certPem });
    stop.abort();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('skips a half-written rotation (key of another certificate) with one warning, and takes it once whole', async () => {
    const first = await issue();
    const second = await issue();
    await write({ 'tls.crt': first.certPem, 'tls.key': first.keyPem });
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const clock = new FakeClock();
    const stop = new AbortController();
    const source = new FileCertificates({
      directory,
      logger: createLogger({ level: 'warn', destination }),
      clock,
      pollIntervalMs: 1000,
    });
    await source.start(stop.signal);
    expect(source.current()?.caPem).toBeUndefined();

    await write({ 'tls.crt': second.certPem });
    for (let poll = 0; poll < 3; poll++) {
      clock.advance(1000);
      await vi.waitFor(() => {
        expect(clock.pendingTimers()).toBe(1);
      });
    }
    expect(source.current()?.certPem).toBe(first.certPem);
    expect(lines.filter((line) => line.includes('not usable'))).toHaveLength(1);
    expect(lines[0]).toContain('the private key does not match the certificate');

    await write({ 'tls.key': second.keyPem });
    clock.advance(1000);
    await vi.waitFor(() => {
      expect(source.current()?.certPem).toBe(second.certPem);
    });
    stop.abort();
  });

  it('refuses to start without usable files, naming the directory', async () => {
    const source = new FileCertificates({ directory, logger: createLogger({ level: 'silent' }) });
    await expect(source.start(AbortSignal.abort())).rejects.toThrow(`no usable webhook certificate in ${directory}`);
  });
});
