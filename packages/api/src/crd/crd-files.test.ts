import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';

import {
  CHART_CRD_ANNOTATIONS,
  CHART_CRDS_DIRECTORY,
  GENERATE_COMMAND,
  renderAllCrdFiles,
  renderChartCrdFiles,
  renderCrdFiles,
} from './crd-files.ts';

describe('generated CRD files', () => {
  it('include the CloneSet, Advanced StatefulSet, SidecarSet and BroadcastJob CRDs in crds/ and in the chart', () => {
    expect(renderAllCrdFiles().map((file) => file.relativePath)).toEqual([
      'crds/apps.kruise.io_clonesets.yaml',
      'crds/apps.kruise.io_statefulsets.yaml',
      'crds/apps.kruise.io_sidecarsets.yaml',
      'crds/apps.kruise.io_broadcastjobs.yaml',
      'charts/kruise-ts/files/crds/apps.kruise.io_clonesets.yaml',
      'charts/kruise-ts/files/crds/apps.kruise.io_statefulsets.yaml',
      'charts/kruise-ts/files/crds/apps.kruise.io_sidecarsets.yaml',
      'charts/kruise-ts/files/crds/apps.kruise.io_broadcastjobs.yaml',
    ]);
  });

  it.each(renderAllCrdFiles())(
    '$relativePath is up to date with the zod schemas',
    async ({ directory, fileName, relativePath, content }) => {
      const onDisk = await readFile(path.join(directory, fileName), 'utf8').catch(() => '');
      if (onDisk !== content) {
        expect.fail(
          `${relativePath} differs from what the schemas in packages/api generate: run \`${GENERATE_COMMAND}\` and commit the result`,
        );
      }
    },
  );

  it('leave no stale CRD in the chart (the chart renders every file of files/crds)', async () => {
    const onDisk = (await readdir(CHART_CRDS_DIRECTORY)).filter((name) => name.endsWith('.yaml')).sort();
    expect(onDisk, `run \`${GENERATE_COMMAND}\`: it removes chart copies of kinds no longer generated`).toEqual(
      renderChartCrdFiles()
        .map((file) => file.fileName)
        .sort(),
    );
  });

  it("give the chart's copy exactly one difference: the keep annotation", () => {
    const plain = renderCrdFiles();
    for (const [index, chartFile] of renderChartCrdFiles().entries()) {
      const chartCrd = parse(chartFile.content) as { metadata: { annotations?: unknown } };
      expect(chartCrd.metadata.annotations).toEqual(CHART_CRD_ANNOTATIONS);
      delete chartCrd.metadata.annotations;
      expect(chartCrd).toEqual(parse(plain[index]?.content ?? ''));
    }
  });

  it('renders the same bytes every time', () => {
    expect(renderAllCrdFiles()).toEqual(renderAllCrdFiles());
  });
});
