/**
 * A CPU profile of kube-apiserver over the first seconds of the measured window (its
 * /debug/pprof/profile endpoint, `--profiling` is on in the local control plane). The API server is
 * the bottleneck of every rollout here; its profile says what a contender's requests cost it (the
 * profile of an in-place rollout showed field-ownership tracking as its largest cost). Read it with
 * `go tool pprof -top -cum <file>`.
 */
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';

import { KubeConfig } from '@kubernetes/client-node';

/** Where the profile comes from: the cluster's admin kubeconfig (a token user, inline CA). */
export interface ProfileSource {
  readonly kubeconfigPath: string;
}

/** The API server's address, CA and the admin token of a kubeconfig. */
export function apiServerCredentials(source: ProfileSource): { server: string; ca: Buffer; token: string } {
  const config = new KubeConfig();
  config.loadFromFile(source.kubeconfigPath);
  const cluster = config.getCurrentCluster();
  const token = config.getCurrentUser()?.token;
  if (cluster?.caData === undefined || token === undefined) {
    throw new Error(`${source.kubeconfigPath}: expected a cluster with inline CA data and a token user`);
  }
  return { server: cluster.server, ca: Buffer.from(cluster.caData, 'base64'), token };
}

/** Records `seconds` of kube-apiserver CPU profile into `file`; rejects (and leaves no file) on any failure. */
export async function captureApiServerProfile(source: ProfileSource, seconds: number, file: string): Promise<void> {
  const { server, ca, token } = apiServerCredentials(source);
  const url = new URL(`/debug/pprof/profile?seconds=${String(Math.max(1, Math.round(seconds)))}`, server);
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    https.get(url, { ca, headers: { Authorization: `Bearer ${token}` } }, resolve).on('error', reject);
  });
  if (response.statusCode !== 200) {
    response.resume();
    throw new Error(
      `${url.pathname}: HTTP ${String(response.statusCode)} (is kube-apiserver running with --profiling?)`,
    );
  }
  try {
    await pipeline(response, createWriteStream(file));
  } catch (error) {
    await unlink(file).catch(() => undefined);
    throw error;
  }
}
