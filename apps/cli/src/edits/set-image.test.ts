import { describe, expect, it } from 'vitest';

import { PreconditionError, UsageError } from '../cli/cli-errors.ts';
import type { WorkloadObject } from '../resources/workload-object.ts';
import { imagePatch, splitSetImageArgs } from './set-image.ts';

describe('splitSetImageArgs', () => {
  it.each([
    [['clone/web', 'nginx=nginx:1.27'], ['clone/web'], [{ container: 'nginx', image: 'nginx:1.27' }]],
    [
      ['clone', 'web', 'nginx=nginx:1.27', 'sidecar=busybox:1.37'],
      ['clone', 'web'],
      [
        { container: 'nginx', image: 'nginx:1.27' },
        { container: 'sidecar', image: 'busybox:1.37' },
      ],
    ],
    [['nginx=nginx:1.27', 'clone/web'], ['clone/web'], [{ container: 'nginx', image: 'nginx:1.27' }]],
    [['clone/web', '*=nginx:1.27'], ['clone/web'], [{ container: '*', image: 'nginx:1.27' }]],
    [
      ['clone/web', 'app=registry.local:5000/app@sha256:abc'],
      ['clone/web'],
      [{ container: 'app', image: 'registry.local:5000/app@sha256:abc' }],
    ],
  ])('%j', (args, objectArgs, updates) => {
    expect(splitSetImageArgs(args)).toEqual({ objectArgs, updates });
  });

  it.each([
    [['clone/web'], /at least one image update is required/],
    [['clone/web', '=nginx'], /invalid image update "=nginx"/],
    [['clone/web', 'nginx='], /invalid image update "nginx="/],
    [['clone/web', 'nginx=a b'], /invalid image update/],
    [['clone/web', 'nginx=a', 'nginx=b'], /"nginx" is given more than one image/],
  ])('refuses %j', (args, message) => {
    expect(() => splitSetImageArgs(args)).toThrow(UsageError);
    expect(() => splitSetImageArgs(args)).toThrow(message);
  });
});

describe('imagePatch', () => {
  const workload: WorkloadObject = {
    metadata: { name: 'web', uid: 'u', resourceVersion: '1' },
    spec: {
      template: {
        spec: {
          initContainers: [{ name: 'init', image: 'busybox:1.36' }],
          containers: [
            { name: 'nginx', image: 'nginx:1.25' },
            { name: 'sidecar', image: 'busybox:1.36' },
          ],
        },
      },
    },
  };

  it('tests each container name before setting its image', () => {
    expect(
      imagePatch(workload, [{ container: 'sidecar', image: 'busybox:1.37' }], 'cloneset.apps.kruise.io/web'),
    ).toEqual([
      { op: 'test', path: '/spec/template/spec/containers/1/name', value: 'sidecar' },
      { op: 'add', path: '/spec/template/spec/containers/1/image', value: 'busybox:1.37' },
    ]);
  });

  it('sets init containers by name, as kubectl does', () => {
    expect(imagePatch(workload, [{ container: 'init', image: 'busybox:1.37' }], 'x')).toEqual([
      { op: 'test', path: '/spec/template/spec/initContainers/0/name', value: 'init' },
      { op: 'add', path: '/spec/template/spec/initContainers/0/image', value: 'busybox:1.37' },
    ]);
  });

  it('sets every container for *, a named one keeping its own image', () => {
    const operations = imagePatch(
      workload,
      [
        { container: '*', image: 'busybox:1.37' },
        { container: 'nginx', image: 'nginx:1.27' },
      ],
      'x',
    );
    expect(
      operations.filter((operation) => operation.op === 'add').map((operation) => [operation.path, operation.value]),
    ).toEqual([
      ['/spec/template/spec/initContainers/0/image', 'busybox:1.37'],
      ['/spec/template/spec/containers/0/image', 'nginx:1.27'],
      ['/spec/template/spec/containers/1/image', 'busybox:1.37'],
    ]);
  });

  it('is empty when the images are already as asked', () => {
    expect(imagePatch(workload, [{ container: 'nginx', image: 'nginx:1.25' }], 'x')).toEqual([]);
  });

  it('refuses an unknown container, listing the containers there are', () => {
    const call = (): unknown =>
      imagePatch(
        workload,
        [
          { container: 'nginx', image: 'nginx:1.27' },
          { container: 'app', image: 'app:2' },
        ],
        'cloneset.apps.kruise.io/web',
      );
    expect(call).toThrow(PreconditionError);
    expect(call).toThrow(
      'unable to find container named "app" in cloneset.apps.kruise.io/web; its containers are init, nginx, sidecar',
    );
  });
});
