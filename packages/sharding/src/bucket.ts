/**
 * Buckets: the fixed unit of work a sharded app moves between its replicas (docs/sharding.md). A
 * workload's bucket is a hash of its namespace and name; the pods, claims and revisions a controller
 * creates carry their owner's bucket as a label, so a replica's caches select only its buckets.
 */
import { splitObjectKey } from '@kruise-ts/controller-runtime';

/**
 * How many buckets there are. Fixed in the code, not a flag: the bucket is written into the label of
 * every pod, so another count would need every pod relabelled.
 */
export const SHARD_BUCKETS = 64;

/** The label with the bucket of the owning workload, on every pod, claim and revision a controller creates. */
export const SHARD_BUCKET_LABEL = 'shard.kruise-ts.io/bucket';

/** The label of every member and bucket Lease of one app's ring; its value is the app's name. */
export const SHARD_RING_LABEL = 'shard.kruise-ts.io/ring';

const FNV_OFFSET_BASIS = 0x81_1c_9d_c5;
const FNV_PRIME = 0x01_00_01_93;
const encoder = new TextEncoder();

/** 32-bit FNV-1a of the UTF-8 bytes: cheap, stable across processes and versions, well spread for short keys. */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash;
}

/**
 * FNV-1a followed by MurmurHash3's 32-bit finalizer. FNV-1a alone spreads short keys that differ in a
 * character or two (`pod-a#1`, `pod-b#1`) unevenly in its high bits, which decide a ring position; the
 * finalizer makes every input bit reach every output bit.
 */
export function shardHash(text: string): number {
  let hash = fnv1a32(text);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85_eb_ca_6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2_b2_ae_35) >>> 0;
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** The bucket of a workload (and of everything it owns). */
export function bucketOf(namespace: string, name: string, buckets: number = SHARD_BUCKETS): number {
  return shardHash(`${namespace}/${name}`) % buckets;
}

/** The bucket of a request key (`namespace/name`, or `name` for a cluster-scoped object). */
export function bucketOfKey(key: string, buckets?: number): number {
  const { namespace, name } = splitObjectKey(key);
  return bucketOf(namespace, name, buckets);
}

/**
 * `object` with the bucket label of the workload `ownerKey` (`namespace/name`) added: what a
 * controller creates for a workload carries it, so that a sharded replica caches it with its owner.
 */
export function withBucketLabel<
  T extends { readonly metadata?: { readonly labels?: Readonly<Record<string, string>> | undefined } | undefined },
>(object: T, ownerKey: string): T {
  return {
    ...object,
    metadata: {
      ...object.metadata,
      labels: { ...object.metadata?.labels, [SHARD_BUCKET_LABEL]: bucketLabelValue(bucketOfKey(ownerKey)) },
    },
  };
}

/** The label value of a bucket. */
export function bucketLabelValue(bucket: number): string {
  return String(bucket);
}

/** The labels to add to an object created for the workload `namespace/name`. */
export function bucketLabels(namespace: string, name: string): Record<string, string> {
  return { [SHARD_BUCKET_LABEL]: bucketLabelValue(bucketOf(namespace, name)) };
}

/** The bucket a label value names; undefined for a missing or malformed value. */
export function parseBucketLabel(value: string | undefined, buckets: number = SHARD_BUCKETS): number | undefined {
  if (value === undefined || !/^(0|[1-9]\d*)$/.test(value)) {
    return undefined;
  }
  const bucket = Number(value);
  return bucket < buckets ? bucket : undefined;
}

/**
 * The server-side selector of a set of buckets: `<label> in (0,3,17)`, sorted. An empty set selects
 * nothing, which a set-based selector cannot say, so it becomes a value no bucket has.
 */
export function bucketSelector(held: Iterable<number>): string {
  const values = [...new Set(held)].sort((a, b) => a - b).map(bucketLabelValue);
  return `${SHARD_BUCKET_LABEL} in (${values.length === 0 ? 'none' : values.join(',')})`;
}
