/**
 * The generated CRD files of the project: which kinds, under which file names, rendered how, and where
 * they go. Shared by the generator command and the drift test so both see exactly the same bytes.
 *
 * Every CRD is written twice: to `crds/` (for `kubectl apply` and the tests) and to the Helm chart's
 * `files/crds/`, because Helm templates can only read files inside the chart. The chart's copy differs
 * only by the `helm.sh/resource-policy: keep` annotation, added here so that the chart includes the file
 * verbatim (no `fromYaml | toYaml` round trip that could reformat numbers or reorder the schema), and
 * by having no `---` after its header (the template that includes it starts the document).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { broadcastJobCrdDefinition } from '../apps/v1alpha1/broadcastjob-crd.ts';
import { cloneSetCrdDefinition } from '../apps/v1alpha1/cloneset-crd.ts';
import { sidecarSetCrdDefinition } from '../apps/v1alpha1/sidecarset-crd.ts';
import { statefulSetCrdDefinition } from '../apps/v1beta1/statefulset-crd.ts';
import type { CrdDefinition, CustomResourceDefinitionManifest } from './custom-resource-definition.ts';
import { buildCustomResourceDefinition } from './custom-resource-definition.ts';
import { renderManifestYaml } from './render-yaml.ts';

/** The repository's root directory. */
export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The repository's `crds/` directory. */
export const CRDS_DIRECTORY = path.join(REPOSITORY_ROOT, 'crds');

/** The chart's copy of the CRDs (`charts/kruise-ts/files/crds/`), read by its templates with `.Files.Get`. */
export const CHART_CRDS_DIRECTORY = path.join(REPOSITORY_ROOT, 'charts', 'kruise-ts', 'files', 'crds');

/**
 * Annotations of the chart's copy: Helm keeps the CRD on `helm uninstall`, so uninstalling the
 * controllers never deletes every CloneSet (and, by garbage collection, their pods).
 */
export const CHART_CRD_ANNOTATIONS: Readonly<Record<string, string>> = { 'helm.sh/resource-policy': 'keep' };

/** The command that regenerates the files, named in their header and in drift failures. */
export const GENERATE_COMMAND = 'npm run crds:generate';

/** Every kind whose CRD the project ships. */
export const CRD_DEFINITIONS: readonly CrdDefinition[] = [
  cloneSetCrdDefinition,
  statefulSetCrdDefinition,
  sidecarSetCrdDefinition,
  broadcastJobCrdDefinition,
];

/** One generated file. */
export interface RenderedCrdFile {
  /** `<group>_<plural>.yaml`, as controller-gen names CRD files. */
  readonly fileName: string;
  /** The directory it is written to (absolute). */
  readonly directory: string;
  /** `directory/fileName` relative to the repository root, for messages. */
  readonly relativePath: string;
  readonly content: string;
}

function crdFileName(definition: CrdDefinition): string {
  return `${definition.group}_${definition.names.plural}.yaml`;
}

function renderedFile(directory: string, fileName: string, manifest: object): RenderedCrdFile {
  // The chart's templates write the `---` themselves before including a file.
  const documentStart = directory !== CHART_CRDS_DIRECTORY;
  return {
    fileName,
    directory,
    relativePath: path.relative(REPOSITORY_ROOT, path.join(directory, fileName)).split(path.sep).join('/'),
    content: renderManifestYaml(manifest, GENERATE_COMMAND, { documentStart }),
  };
}

function withChartAnnotations(crd: CustomResourceDefinitionManifest): object {
  return { ...crd, metadata: { ...crd.metadata, annotations: { ...CHART_CRD_ANNOTATIONS } } };
}

/** Renders the CRD file of every kind in {@link CRD_DEFINITIONS} for `crds/`. */
export function renderCrdFiles(): RenderedCrdFile[] {
  return CRD_DEFINITIONS.map((definition) =>
    renderedFile(CRDS_DIRECTORY, crdFileName(definition), buildCustomResourceDefinition(definition)),
  );
}

/** Renders the chart's copy of every CRD: the same CRD with {@link CHART_CRD_ANNOTATIONS}. */
export function renderChartCrdFiles(): RenderedCrdFile[] {
  return CRD_DEFINITIONS.map((definition) =>
    renderedFile(
      CHART_CRDS_DIRECTORY,
      crdFileName(definition),
      withChartAnnotations(buildCustomResourceDefinition(definition)),
    ),
  );
}

/** Every file the generator writes: `crds/` and the chart's copy. */
export function renderAllCrdFiles(): RenderedCrdFile[] {
  return [...renderCrdFiles(), ...renderChartCrdFiles()];
}
