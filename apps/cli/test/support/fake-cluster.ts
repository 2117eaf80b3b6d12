/**
 * Runs the program in-process over controller-runtime's in-memory API server, with the output
 * captured: for the unit tests of whole command lines.
 */
import { FakeClient } from '@kruise-ts/controller-runtime/testing';

import type { CliIo, Cluster, ConnectionFlags, ExitCode } from '../../src/index.ts';
import { runCli } from '../../src/index.ts';
import { resolveKind } from '../../src/resources/kinds.ts';
import type { Kind } from '../../src/resources/kinds.ts';
import { podResource, workloadResource } from '../../src/resources/resource-types.ts';
import type { WorkloadObject } from '../../src/resources/workload-object.ts';

export const NOW = new Date('2026-11-25T10:00:00.123Z');

export function kind(type: string): Kind {
  const found = resolveKind(type);
  if (found === undefined) {
    throw new Error(`no kind ${type}`);
  }
  return found;
}

export const CLONESET = kind('cloneset');
export const ASTS = kind('asts');

export interface Run {
  readonly code: ExitCode;
  readonly stdout: string;
  readonly stderr: string;
}

export class FakeCluster {
  readonly api = new FakeClient();
  /** The flags of every connection the program made. */
  readonly connections: ConnectionFlags[] = [];

  async run(...argv: string[]): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      env: {},
      programName: 'kruise-ts',
      now: () => NOW,
    };
    const connect = (flags: ConnectionFlags): Promise<Cluster> => {
      this.connections.push(flags);
      return Promise.resolve({ client: this.api, namespace: flags.namespace ?? 'default', close: () => undefined });
    };
    const code = await runCli(argv, io, connect);
    return { code, stdout, stderr };
  }

  /** Seeds a workload of `kind` in `default`; returns it as stored (with its uid). */
  workload(of: Kind, name: string, spec: Partial<WorkloadObject['spec']> = {}): WorkloadObject {
    const object = {
      metadata: { name, namespace: 'default', uid: '', resourceVersion: '' },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } }, ...spec },
    } satisfies WorkloadObject;
    this.api.seed(workloadResource(of), [object]);
    return this.stored(of, name);
  }

  stored(of: Kind, name: string): WorkloadObject {
    const found = this.api.objects(workloadResource(of)).find((object) => object.metadata.name === name);
    if (found === undefined) {
      throw new Error(`no ${of.kind} ${name}`);
    }
    return found;
  }

  /** Seeds a pod controlled by `owner` (or by nothing). */
  pod(name: string, owner?: WorkloadObject): void {
    const ownerReferences =
      owner === undefined
        ? []
        : [
            {
              apiVersion: 'apps.kruise.io/v1alpha1',
              kind: 'CloneSet',
              name: owner.metadata.name,
              uid: owner.metadata.uid,
              controller: true,
            },
          ];
    this.api.seed(podResource, [{ metadata: { name, namespace: 'default', uid: `pod-${name}`, ownerReferences } }]);
  }

  writes(): number {
    return this.api.writes().length;
  }
}
