import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { CRDS_DIRECTORY, GENERATE_COMMAND, renderCrdFiles } from './crd-files.ts';

describe('generated CRD files', () => {
  it('include the CloneSet CRD', () => {
    expect(renderCrdFiles().map((file) => file.fileName)).toContain('apps.kruise.io_clonesets.yaml');
  });

  it.each(renderCrdFiles())('crds/$fileName is up to date with the zod schemas', async ({ fileName, content }) => {
    const onDisk = await readFile(path.join(CRDS_DIRECTORY, fileName), 'utf8').catch(() => '');
    if (onDisk !== content) {
      expect.fail(`crds/${fileName} differs from what the schemas in packages/api generate: run \`${GENERATE_COMMAND}\` and commit the result`);
    }
  });

  it('renders the same bytes every time', () => {
    expect(renderCrdFiles()).toEqual(renderCrdFiles());
  });
});
