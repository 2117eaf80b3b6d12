/**
 * Golden vectors: the Go libraries and types OpenKruise v1.9.0 uses (test/golden-go) against this
 * package, for the env-from-metadata hash, the state and grace annotations (decode + encode, byte for
 * byte), the template metadata patch, and the revision diff behind the in-place decision.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import type { ObjectMeta, PodTemplateSpec } from '@kruise-ts/api';
import { revisionData } from '@kruise-ts/revision';

import {
  calculateInPlaceUpdateSpec,
  envFromMetadataHash,
  formatGraceSpec,
  formatInPlaceUpdateState,
  parseGraceSpec,
} from '../../src/index.ts';
import type { UpdateSpec } from '../../src/index.ts';
import { diffJson } from '../../src/internal/json-diff.ts';
import type { JsonPath } from '../../src/internal/json-diff.ts';
import { parseInPlaceUpdateState } from '../../src/internal/state-schema.ts';
import { revisionOf } from '../fixtures/revisions.ts';
import { buildGoldenProgram, runGoldenProgram } from './go-program.ts';
import { ENV_CASES, GRACE_SPEC_TEXTS, METADATA_PAIRS, REVISION_PAIRS, STATE_TEXTS } from './golden-cases.ts';

interface Encoded {
  readonly json?: string;
  readonly error?: string;
}

interface GoOutput {
  readonly envHashes: readonly number[];
  readonly states: readonly Encoded[];
  readonly updateSpecs: readonly Encoded[];
  readonly metadataPatches: readonly Encoded[];
  readonly revisionDiffs: readonly (readonly { readonly op: string; readonly path: string }[])[];
  readonly errors?: readonly string[];
}

/** Specs produced by this package, to be read back by Go unchanged. */
const OWN_SPECS: readonly UpdateSpec[] = [
  {
    revision: 'demo-2',
    containerImages: { main: 'nginx:1.27' },
    containerRefMetadata: {},
    containerResources: {},
    metadataPatch: undefined,
    updateEnvFromMetadata: false,
    graceSeconds: 5,
  },
  {
    revision: 'demo-3',
    containerImages: { b: 'x', a: 'y' },
    containerRefMetadata: { a: { labels: { track: 'canary' }, annotations: { note: '<b>' } } },
    containerResources: { a: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '250m' } } },
    metadataPatch: { labels: { extra: 'x', gone: null }, annotations: { 'a/b': 'c&d' } },
    updateEnvFromMetadata: true,
    graceSeconds: 30,
  },
];

const specTexts = [...GRACE_SPEC_TEXTS, ...OWN_SPECS.map(formatGraceSpec)];
const revisionTexts = REVISION_PAIRS.map((pair) => ({ old: revisionData(pair.old), new: revisionData(pair.new) }));

let go: GoOutput;

beforeAll(async () => {
  const binary = await buildGoldenProgram();
  const input = {
    envHashes: ENV_CASES.map(({ container, labels, annotations }) => ({ container, labels, annotations })),
    states: STATE_TEXTS.map((text) => JSON.parse(text) as unknown),
    updateSpecs: specTexts.map((text) => JSON.parse(text) as unknown),
    metadataPatches: METADATA_PAIRS.map(({ old, new: next }) => ({ old, new: next })),
    revisionDiffs: revisionTexts,
  };
  go = JSON.parse(await runGoldenProgram(binary, JSON.stringify(input))) as GoOutput;
}, 600_000);

function pointer(path: JsonPath): string {
  return path.map((part) => `/${String(part).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** In place when every operation is on metadata or replaces a container image (vertical scaling off). */
function decisionOf(ops: readonly { readonly op: string; readonly path: string }[]): string {
  const inPlace = ops.every(
    (op) =>
      op.path.startsWith('/metadata/') || (op.op === 'replace' && /^\/spec\/containers\/\d+\/image$/.test(op.path)),
  );
  return inPlace ? 'in-place' : 'recreate';
}

describe('golden vectors from Go', () => {
  it('ran every case without a Go error', () => {
    expect(go.errors ?? []).toEqual([]);
    expect(go.envHashes).toHaveLength(ENV_CASES.length);
  });

  it.each(ENV_CASES.map((entry, index) => ({ ...entry, index })))(
    'env hash: $name',
    ({ container, labels, annotations, index }) => {
      expect(envFromMetadataHash(container, { labels, annotations })).toBe(go.envHashes[index]);
    },
  );

  it.each(STATE_TEXTS.map((text, index) => ({ text, index })))('state annotation $index: $text', ({ text, index }) => {
    const expected = go.states[index];
    const parsed = parseInPlaceUpdateState(text);
    if (expected?.error !== undefined) {
      expect(parsed).toBeTypeOf('string');
      return;
    }
    expect(typeof parsed === 'string' ? parsed : formatInPlaceUpdateState(parsed)).toBe(expected?.json);
  });

  it.each(specTexts.map((text, index) => ({ text, index })))('grace annotation $index: $text', ({ text, index }) => {
    const expected = go.updateSpecs[index];
    const parsed = parseGraceSpec(text);
    if (expected?.error !== undefined) {
      expect(parsed).toBeTypeOf('string');
      return;
    }
    expect(typeof parsed === 'string' ? parsed : formatGraceSpec(parsed)).toBe(expected?.json);
  });

  it('writes its own grace annotations exactly as Go re-encodes them', () => {
    OWN_SPECS.forEach((spec, index) => {
      expect(go.updateSpecs[GRACE_SPEC_TEXTS.length + index]?.json).toBe(formatGraceSpec(spec));
    });
  });

  it.each(METADATA_PAIRS.map((entry, index) => ({ ...entry, index })))(
    'metadata patch: $name',
    ({ old, new: next, index }) => {
      const template = (metadata: ObjectMeta): PodTemplateSpec => ({
        metadata,
        spec: { containers: [{ name: 'c', image: 'i' }] },
      });
      const decision = calculateInPlaceUpdateSpec({
        oldRevision: revisionOf('r-1', template(old)),
        newRevision: revisionOf('r-2', template(next)),
        gracePeriodSeconds: 0,
        inPlaceOnly: false,
        gates: { verticalScaling: false, envFromMetadata: false, recreateOnVolumeClaimTemplatesChange: false },
      });
      const ours = decision.kind === 'in-place' ? decision.spec.metadataPatch : undefined;
      expect(JSON.parse(go.metadataPatches[index]?.json ?? 'null')).toEqual(
        ours === undefined ? {} : { metadata: ours },
      );
    },
  );

  it.each(REVISION_PAIRS.map((entry, index) => ({ ...entry, index })))(
    'revision diff: $name',
    ({ simpleArrays, index }) => {
      const texts = revisionTexts[index];
      const goOps = go.revisionDiffs[index] ?? [];
      const oldTemplate = (JSON.parse(texts?.old ?? '{}') as { spec: { template: unknown } }).spec.template;
      const newTemplate = (JSON.parse(texts?.new ?? '{}') as { spec: { template: unknown } }).spec.template;
      const ours = diffJson(oldTemplate, newTemplate).map((op) => ({ op: op.op, path: pointer(op.path) }));
      expect(decisionOf(ours)).toBe(decisionOf(goOps));
      if (simpleArrays !== true) {
        const key = (op: { op: string; path: string }): string => `${op.op} ${op.path}`;
        expect(ours.map(key).sort()).toEqual(goOps.map(key).sort());
      }
    },
  );
});
