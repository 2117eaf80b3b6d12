/** Inputs of the golden test: each is computed by Go (test/golden-go) and by this package. */
import type { ObjectMeta, PodTemplateSpec } from '@kruise-ts/api';

type Container = NonNullable<PodTemplateSpec['spec']>['containers'][number];
type EnvVar = NonNullable<Container['env']>[number];

const label = (name: string, key: string): EnvVar => ({
  name,
  valueFrom: { fieldRef: { fieldPath: `metadata.labels['${key}']` } },
});
const annotation = (name: string, key: string): EnvVar => ({
  name,
  valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${key}']` } },
});

/** Env-from-metadata hash cases. */
export const ENV_CASES: readonly {
  readonly name: string;
  readonly container: Container;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}[] = [
  { name: 'no env', container: { name: 'c' }, labels: {}, annotations: {} },
  { name: 'only plain env', container: { name: 'c', env: [{ name: 'A', value: '1' }] }, labels: {}, annotations: {} },
  {
    name: 'one label',
    container: { name: 'c', env: [label('TRACK', 'track')] },
    labels: { track: 'canary' },
    annotations: {},
  },
  { name: 'a missing label', container: { name: 'c', env: [label('TRACK', 'track')] }, labels: {}, annotations: {} },
  {
    name: 'labels and annotations, unsorted',
    container: { name: 'c', env: [annotation('Z', 'z'), label('B', 'b'), annotation('a', 'a'), label('A', 'b')] },
    labels: { b: '2' },
    annotations: { z: 'zz', a: 'aa' },
  },
  {
    name: 'HTML and unicode values',
    container: { name: 'c', env: [label('V', 'v'), annotation('W', 'w')] },
    labels: { v: '<&>' },
    annotations: { w: 'caf\u00e9 \u{1f680} \u2028' },
  },
  {
    name: 'literal values, excluded names and other field paths are skipped',
    container: {
      name: 'c',
      env: [
        { ...label('LIT', 'x'), value: 'literal' },
        label('SIDECARSET_VERSION', 'x'),
        label('SIDECARSET_VERSION_ALT', 'x'),
        { name: 'NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'NS', valueFrom: { fieldRef: { fieldPath: "metadata.namespace['x']" } } },
        { name: 'SECRET', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        label('KEPT', 'x'),
      ],
    },
    labels: { x: 'y' },
    annotations: {},
  },
  {
    name: 'duplicate names keep their order',
    container: { name: 'c', env: [label('D', 'one'), label('D', 'two')] },
    labels: { one: '1', two: '2' },
    annotations: {},
  },
  {
    name: 'keys with slashes and dots',
    container: { name: 'c', env: [label('K', 'example.com/tier'), annotation('Q', "it's")] },
    labels: { 'example.com/tier': 'gold' },
    annotations: { "it's": 'quoted' },
  },
  {
    name: 'an empty value is omitted from the JSON',
    container: { name: 'c', env: [label('E', 'e')] },
    labels: { e: '' },
    annotations: {},
  },
];

/**
 * State annotation texts as they may be found on pods (written by OpenKruise, by us, or damaged). The
 * ObjectMeta of nextContainerRefMetadata is modelled with labels and annotations only, the only fields
 * OpenKruise puts there.
 */
export const STATE_TEXTS: readonly string[] = [
  '{"revision":"demo-7c9d5b4f8","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":{"main":{"imageID":"docker-pullable://nginx@sha256:abc"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2026-01-02T03:04:05Z","containers":["main"]}]}',
  '{"revision":"r","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":null}',
  '{"revision":"r"}',
  '{}',
  'null',
  '{"updateTimestamp":"2026-01-02T04:04:05.999+01:00","revision":"r","lastContainerStatuses":{"b":{},"a":{"imageID":""}},"unknown":[1,2]}',
  '{"revision":"r","updateTimestamp":null,"lastContainerStatuses":{},"updateEnvFromMetadata":true,"updateResources":true,"updateImages":false}',
  '{"revision":"r","updateTimestamp":"2026-01-02T03:04:05Z","lastContainerStatuses":null,"nextContainerImages":{"z":"img:1","a":"img:2"},"nextContainerRefMetadata":{"a":{"labels":{"k":"v"},"annotations":{"x":"<y>"}}},"nextContainerResources":{"a":{"limits":{"cpu":"1000m","memory":"1.5Gi"},"requests":{"cpu":0.5}}},"preCheckBeforeNext":{"containersRequiredReady":["b","a"]},"containerBatchesRecord":[{"timestamp":"2026-01-02T03:04:05Z","containers":["b"]},{"timestamp":null,"containers":null}]}',
  '{"revision":"r","nextContainerImages":{},"nextContainerRefMetadata":{},"preCheckBeforeNext":{},"containerBatchesRecord":[]}',
  '{"revision":"r","preCheckBeforeNext":null,"containerBatchesRecord":null,"lastContainerStatuses":{"a":null}}',
  '{"revision":"\\u003c\\u2028 \u00e9"}',
  '{"revision":5}',
  '{"revision":"r","updateTimestamp":"not a time"}',
  '{"revision":"r","nextContainerResources":{"a":{"limits":{"cpu":"lots"}}}}',
  '[]',
];

/** Grace annotation texts (OpenKruise UpdateSpec JSON). */
export const GRACE_SPEC_TEXTS: readonly string[] = [
  '{"revision":"demo-2","containerImages":{"main":"nginx:1.27"},"graceSeconds":5}',
  '{"revision":"demo-2","containerImages":{"main":"nginx:1.27"},"containerRefMetadata":{"main":{"labels":{"track":"canary"}}},"metaDataPatch":"eyJtZXRhZGF0YSI6e319","updateEnvFromMetadata":true,"graceSeconds":5}',
  `{"revision":"r","metaDataPatch":"${Buffer.from('{"metadata":{"labels":{"a":"1","b":null}}}').toString('base64')}","containerResources":{"c":{"limits":{"memory":"1024Mi"},"requests":{}}}}`,
  '{"graceSeconds":0,"revision":"r","containerImages":{},"oldTemplate":null}',
  '{"revision":"r","graceSeconds":"5"}',
  '{"revision":"r","metaDataPatch":"not base64!"}',
];

/** Template metadata pairs whose strategic two-way merge patch is compared. */
export const METADATA_PAIRS: readonly { readonly name: string; readonly old: ObjectMeta; readonly new: ObjectMeta }[] =
  [
    { name: 'no change', old: { labels: { app: 'a' } }, new: { labels: { app: 'a' } } },
    {
      name: 'a label changed and one added',
      old: { labels: { app: 'a', v: '1' } },
      new: { labels: { app: 'a', v: '2', w: '3' } },
    },
    { name: 'a label removed', old: { labels: { app: 'a', v: '1' } }, new: { labels: { app: 'a' } } },
    {
      name: 'annotations added to existing ones',
      old: { labels: { app: 'a' }, annotations: { x: '1' } },
      new: { labels: { app: 'a' }, annotations: { x: '1', 'example.com/y': '<2>' } },
    },
    {
      name: 'the first annotations',
      old: { labels: { app: 'a' } },
      new: { labels: { app: 'a' }, annotations: { x: '1' } },
    },
    {
      name: 'labels and annotations together',
      old: { labels: { app: 'a', gone: 'x' }, annotations: { keep: 'k', drop: 'd' } },
      new: { labels: { app: 'b' }, annotations: { keep: 'k', add: 'a' } },
    },
  ];

const base = (): PodTemplateSpec => ({
  metadata: { labels: { app: 'demo' } },
  spec: {
    containers: [
      {
        name: 'main',
        image: 'nginx:1.25',
        args: ['a', 'b'],
        env: [{ name: 'A', value: '1' }],
        resources: { limits: { cpu: '1' } },
      },
      { name: 'side', image: 'busybox' },
    ],
    volumes: [{ name: 'v', emptyDir: {} }],
  },
});

function changed(change: (template: PodTemplateSpec) => void): PodTemplateSpec {
  const template = base();
  change(template);
  return template;
}

function container(template: PodTemplateSpec, index: number): Container {
  const found = template.spec?.containers[index];
  if (found === undefined) {
    throw new Error('fixture without container');
  }
  return found;
}

/** Template pairs whose revision diff (appscode jsonpatch) is compared; `simpleArrays` marks edit-distance arrays. */
export const REVISION_PAIRS: readonly {
  readonly name: string;
  readonly old: PodTemplateSpec;
  readonly new: PodTemplateSpec;
  readonly simpleArrays?: boolean;
}[] = [
  { name: 'equal', old: base(), new: base() },
  {
    name: 'two images',
    old: base(),
    new: changed((t) => {
      container(t, 0).image = 'nginx:1.27';
      container(t, 1).image = 'busybox:2';
    }),
  },
  {
    name: 'labels and annotations',
    old: base(),
    new: changed((t) => {
      t.metadata = { labels: { app: 'demo', x: 'y' }, annotations: { a: 'b' } };
    }),
  },
  {
    name: 'a container added',
    old: base(),
    new: changed((t) => {
      t.spec?.containers.push({ name: 'third', image: 'x' });
    }),
  },
  {
    name: 'a container removed',
    old: base(),
    new: changed((t) => {
      t.spec?.containers.pop();
    }),
  },
  {
    name: 'containers reordered',
    old: base(),
    new: changed((t) => {
      t.spec?.containers.reverse();
    }),
  },
  {
    name: 'a resource changed, added and removed',
    old: base(),
    new: changed((t) => {
      container(t, 0).resources = { limits: { cpu: '2' }, requests: { memory: '1Gi' } };
      container(t, 1).resources = { limits: { cpu: '1' } };
    }),
  },
  {
    name: 'a volume changed',
    old: base(),
    new: changed((t) => {
      if (t.spec !== undefined) {
        t.spec.volumes = [{ name: 'v', emptyDir: { medium: 'Memory' } }];
      }
    }),
  },
  {
    name: 'args changed (edit distance)',
    old: base(),
    new: changed((t) => {
      container(t, 0).args = ['a', 'c', 'd'];
    }),
    simpleArrays: true,
  },
  {
    name: 'env changed (edit distance)',
    old: base(),
    new: changed((t) => {
      container(t, 0).env = [
        { name: 'B', value: '2' },
        { name: 'A', value: '1' },
      ];
    }),
    simpleArrays: true,
  },
  {
    name: 'an image and args',
    old: base(),
    new: changed((t) => {
      container(t, 0).image = 'nginx:2';
      container(t, 0).args = ['b'];
    }),
    simpleArrays: true,
  },
  {
    name: 'pod-level fields',
    old: base(),
    new: changed((t) => {
      if (t.spec !== undefined) {
        t.spec.terminationGracePeriodSeconds = 5;
        t.spec.nodeSelector = { zone: 'a' };
      }
    }),
  },
];
