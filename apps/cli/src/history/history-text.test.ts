import { describe, expect, it } from 'vitest';

import type { PodTemplateSpec } from '@kruise-ts/api';
import { newControllerRevision } from '@kruise-ts/revision';

import { PreconditionError } from '../cli/cli-errors.ts';
import { historyText } from './history-text.ts';
import { revisionObjectSchema } from './revision-resource.ts';
import type { RevisionObject } from './revision-resource.ts';

const owner = {
  name: 'web',
  namespace: 'default',
  uid: 'web-uid',
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
};

function template(images: readonly string[]): PodTemplateSpec {
  return {
    metadata: { labels: { app: 'web' } },
    spec: { containers: images.map((image, index) => ({ name: index === 0 ? 'nginx' : `c${index}`, image })) },
  };
}

/** A revision as the controller writes it (OpenKruise's data, the workload's annotations). */
function revision(number: number, spec: PodTemplateSpec, annotations: Record<string, string> = {}): RevisionObject {
  return revisionObjectSchema.parse(
    newControllerRevision({
      owner,
      template: spec,
      ownerAnnotations: annotations,
      collisionCount: 0,
      revision: number,
    }),
  );
}

const cause = (text: string): Record<string, string> => ({ 'kubernetes.io/change-cause': text });

describe('rollout history: the table', () => {
  it('lists revision, change cause and images, as kubectl with a column of ours', () => {
    const history = [
      revision(1, template(['nginx:1.25', 'busybox:1.36'])),
      revision(2, template(['nginx:1.26', 'busybox:1.36']), cause('kruise-ts set image clone/web nginx=nginx:1.26')),
      revision(10, template(['nginx:1.27', 'busybox:1.36']), cause('')),
    ];
    expect(historyText({ displayName: 'cloneset.apps.kruise.io/web', history, revision: 0 })).toBe(
      [
        'cloneset.apps.kruise.io/web',
        'REVISION  CHANGE-CAUSE                                    IMAGES',
        '1         <none>                                          nginx:1.25,busybox:1.36',
        '2         kruise-ts set image clone/web nginx=nginx:1.26  nginx:1.26,busybox:1.36',
        '10        <none>                                          nginx:1.27,busybox:1.36',
        '',
        '',
      ].join('\n'),
    );
  });

  it('keeps a row whole when the change cause has line breaks, and marks data it cannot read', () => {
    const broken: RevisionObject = {
      metadata: { name: 'web-x', annotations: cause('one\ntwo') },
      revision: 3,
      data: { spec: 'nope' },
    };
    expect(historyText({ displayName: 'x/web', history: [broken], revision: 0 })).toBe(
      'x/web\nREVISION  CHANGE-CAUSE  IMAGES\n3         one two       <unreadable revision data>\n\n',
    );
  });

  it('says there is no history, as kubectl, with or without --revision', () => {
    expect(historyText({ displayName: 'statefulset.apps.kruise.io/db', history: [], revision: 0 })).toBe(
      'statefulset.apps.kruise.io/db\nNo rollout history found.\n',
    );
    expect(historyText({ displayName: 'statefulset.apps.kruise.io/db', history: [], revision: 4 })).toBe(
      'statefulset.apps.kruise.io/db\nNo rollout history found.\n',
    );
  });
});

describe('rollout history --revision N: the pod template', () => {
  it('prints labels, annotations, containers and volumes, aligned as kubectl describe', () => {
    const full: PodTemplateSpec = {
      metadata: { labels: { app: 'web', tier: 'front' }, annotations: { 'example.com/a': '1' } },
      spec: {
        serviceAccountName: 'web-sa',
        initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['sh', '-c', 'true'] }],
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.26',
            ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
            args: ['--verbose'],
            env: [
              { name: 'MODE', value: 'prod' },
              { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            ],
            volumeMounts: [
              { name: 'data', mountPath: '/data' },
              { name: 'config', mountPath: '/etc/web', readOnly: true },
            ],
          },
        ],
        volumes: [
          { name: 'data', emptyDir: {} },
          { name: 'config', configMap: { name: 'web' } },
        ],
      },
    };
    const history = [revision(1, template(['nginx:1.25'])), revision(2, full)];
    expect(historyText({ displayName: 'cloneset.apps.kruise.io/web', history, revision: 2 })).toBe(
      [
        'cloneset.apps.kruise.io/web with revision #2',
        'Pod Template:',
        '  Labels:           app=web',
        '                    tier=front',
        '  Annotations:      example.com/a: 1',
        '  Service Account:  web-sa',
        '  Init Containers:',
        '   init:',
        '    Image:  busybox:1.36',
        '    Port:   <none>',
        '    Command:',
        '      sh',
        '      -c',
        '      true',
        '    Environment:  <none>',
        '    Mounts:       <none>',
        '  Containers:',
        '   nginx:',
        '    Image:  nginx:1.26',
        '    Ports:  80/TCP, 53/UDP',
        '    Args:',
        '      --verbose',
        '    Environment:  MODE=prod',
        '                  POD=<set from fieldRef>',
        '    Mounts:       /data from data (rw)',
        '                  /etc/web from config (ro)',
        '  Volumes:        data (emptyDir)',
        '                  config (configMap)',
        '',
        '',
      ].join('\n'),
    );
  });

  it('prints <none> for what a minimal template leaves out', () => {
    const history = [revision(1, { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } })];
    expect(historyText({ displayName: 'statefulset.apps.kruise.io/db', history, revision: 1 })).toBe(
      [
        'statefulset.apps.kruise.io/db with revision #1',
        'Pod Template:',
        '  Labels:       <none>',
        '  Annotations:  <none>',
        '  Containers:',
        '   nginx:',
        '    Image:        nginx:1.25',
        '    Port:         <none>',
        '    Environment:  <none>',
        '    Mounts:       <none>',
        '  Volumes:        <none>',
        '',
        '',
      ].join('\n'),
    );
  });

  it.each([
    [7, 'unable to find the specified revision'],
    [2, 'unable to parse history web-broken'],
  ])('refuses --revision %i: %s', (number, message) => {
    const history = [
      revision(1, template(['nginx:1.25'])),
      { metadata: { name: 'web-broken' }, revision: 2, data: null },
    ];
    const call = (): string => historyText({ displayName: 'cloneset.apps.kruise.io/web', history, revision: number });
    expect(call).toThrow(PreconditionError);
    expect(call).toThrow(message);
  });
});
