/**
 * The generated CRD files of the project: which kinds, under which file names, rendered how. Shared by
 * the generator command and the drift test so both see exactly the same bytes.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cloneSetCrdDefinition } from '../apps/v1alpha1/cloneset-crd.ts';
import type { CrdDefinition } from './custom-resource-definition.ts';
import { buildCustomResourceDefinition } from './custom-resource-definition.ts';
import { renderManifestYaml } from './render-yaml.ts';

/** The repository's `crds/` directory. */
export const CRDS_DIRECTORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../crds');

/** The command that regenerates the files, named in their header and in drift failures. */
export const GENERATE_COMMAND = 'npm run crds:generate';

/** Every kind whose CRD the project ships. */
export const CRD_DEFINITIONS: readonly CrdDefinition[] = [cloneSetCrdDefinition];

/** One generated file. */
export interface RenderedCrdFile {
  /** `<group>_<plural>.yaml`, as controller-gen names CRD files. */
  readonly fileName: string;
  readonly content: string;
}

/** Renders the CRD file of every kind in {@link CRD_DEFINITIONS}. */
export function renderCrdFiles(): RenderedCrdFile[] {
  return CRD_DEFINITIONS.map((definition) => ({
    fileName: `${definition.group}_${definition.names.plural}.yaml`,
    content: renderManifestYaml(buildCustomResourceDefinition(definition), GENERATE_COMMAND),
  }));
}
