import { writeFile } from 'node:fs/promises';

export interface AdminKubeconfig {
  readonly server: string;
  readonly caPem: string;
  readonly token: string;
}

/**
 * An admin kubeconfig with inline data (`certificate-authority-data`), so that it works from any
 * working directory and in @kubernetes/client-node, which does not resolve relative file paths.
 */
export function renderKubeconfig(config: AdminKubeconfig): string {
  const caData = Buffer.from(config.caPem).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: kruise-ts-local',
    '  cluster:',
    `    server: ${config.server}`,
    `    certificate-authority-data: ${caData}`,
    'users:',
    '- name: kruise-ts-admin',
    '  user:',
    `    token: ${config.token}`,
    'contexts:',
    '- name: kruise-ts-local',
    '  context:',
    '    cluster: kruise-ts-local',
    '    user: kruise-ts-admin',
    'current-context: kruise-ts-local',
    '',
  ].join('\n');
}

export async function writeKubeconfig(file: string, config: AdminKubeconfig): Promise<void> {
  await writeFile(file, renderKubeconfig(config), { mode: 0o600 });
}
