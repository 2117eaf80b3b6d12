import type { V1Container } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { commandLine, imageContentMounts, POD_SHIM_PATH, shimEnvironment } from './container-plan.ts';
import { ContainerStartError } from './container-worker.ts';
import type { ImageMapping } from './image-mapping.ts';
import { POD_SHIM_ENV } from './pod-shim-config.ts';

const IMAGE: ImageMapping = {
  repository: 'kruise-ts',
  workingDir: '/repo',
  entrypoint: ['node', '--expose-gc'],
  cmd: ['dist/cloneset.mjs'],
  env: {},
  executables: { node: '/opt/node/bin/node', sh: '/bin/sh' },
};
const SHIM = `--import=${POD_SHIM_PATH}`;

describe('commandLine', () => {
  it.each<{ what: string; container: Partial<V1Container>; command: string; args: string[] }>([
    {
      what: 'neither: ENTRYPOINT then CMD',
      container: {},
      command: '/opt/node/bin/node',
      args: [SHIM, '--expose-gc', 'dist/cloneset.mjs'],
    },
    {
      what: 'args only: ENTRYPOINT then args (CMD dropped)',
      container: { args: ['dist/sidecarset.mjs', '--leader-elect'] },
      command: '/opt/node/bin/node',
      args: [SHIM, '--expose-gc', 'dist/sidecarset.mjs', '--leader-elect'],
    },
    {
      what: 'command only: command, no CMD',
      container: { command: ['node', 'x.mjs'] },
      command: '/opt/node/bin/node',
      args: [SHIM, 'x.mjs'],
    },
    {
      what: 'command and args',
      container: { command: ['node'], args: ['y.mjs', '-v'] },
      command: '/opt/node/bin/node',
      args: [SHIM, 'y.mjs', '-v'],
    },
    {
      what: 'a non-Node executable runs without the shim',
      container: { command: ['sh', '-c', 'exit 3'] },
      command: '/bin/sh',
      args: ['-c', 'exit 3'],
    },
  ])('$what', ({ container, command, args }) => {
    expect(commandLine({ name: 'c', ...container }, IMAGE)).toEqual({ command, args });
  });

  it('expands $(VAR) in the pod command and args from the environment, not in the image entrypoint', () => {
    const image: ImageMapping = { ...IMAGE, cmd: ['$(APP)'] };
    expect(commandLine({ name: 'c' }, image, { APP: 'x' }).args).toEqual([SHIM, '--expose-gc', '$(APP)']);
    expect(commandLine({ name: 'c', args: ['$(APP).mjs', '$$(APP)', '$(UNSET)'] }, IMAGE, { APP: 'x' }).args).toEqual([
      SHIM,
      '--expose-gc',
      'x.mjs',
      '$(APP)',
      '$(UNSET)',
    ]);
  });

  it('names an executable the image does not map, and what it maps', () => {
    const run = () => commandLine({ name: 'c', command: ['kruise-nope', '--x'] }, IMAGE);
    expect(run).toThrow(ContainerStartError);
    expect(run).toThrow('exec: "kruise-nope": executable file not found in $PATH (the image kruise-ts maps: node, sh)');
  });

  it('refuses an empty command line', () => {
    expect(() => commandLine({ name: 'c' }, { ...IMAGE, entrypoint: [], cmd: [] })).toThrow('no command specified');
  });
});

describe('shimEnvironment', () => {
  it('passes ports and mounts as JSON in one variable', () => {
    const env = shimEnvironment(new Map([[9443, 40001]]), [
      ['/var/run/secrets/kubernetes.io/serviceaccount', '/d/v/token'],
    ]);
    expect(JSON.parse(env[POD_SHIM_ENV] ?? '')).toEqual({
      ports: { '9443': 40001 },
      mounts: [['/var/run/secrets/kubernetes.io/serviceaccount', '/d/v/token']],
    });
  });
});

describe('imageContentMounts', () => {
  it("mounts the working directory and the executables' directories onto themselves, once each", () => {
    const image = {
      repository: 'kruise-ts',
      workingDir: '/tmp/clone',
      entrypoint: [],
      cmd: [],
      env: {},
      executables: { node: '/tmp/clone/node_modules/node/bin/node', npm: '/tmp/clone/node_modules/node/bin/npm' },
    };
    expect(imageContentMounts(image)).toEqual([
      ['/tmp/clone', '/tmp/clone'],
      ['/tmp/clone/node_modules/node/bin', '/tmp/clone/node_modules/node/bin'],
    ]);
  });
});
