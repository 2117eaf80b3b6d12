/**
 * Whether a conversion record is stale for the object it comes back with. A record written toward the
 * other version's view is stamped with the object's uid, generation and a hash of the view's spec; the
 * record stored with an object with the uid only (see RecordStamp).
 *
 * The generation is not compared exactly: the API server converts a write into the storage version
 * after it has bumped the generation of a write that changed the spec, so a fresh record comes back at
 * its generation (a write of the view that left the spec alone) or at the next one (a write that
 * changed it: then the spec differs from the view it was read as). A record one generation behind
 * with the spec of its view unchanged is a copy kept from an earlier read: the object moved on
 * without this write (in fields the view does not show, such as `ordinals`) and the copy is written
 * back as it was read.
 */
import { createHash } from 'node:crypto';

import { isJsonObject, valueAt } from './json-path.ts';
import type { JsonObject } from './json-path.ts';
import type { RecordOrigin } from './record-reader.ts';
import type { RecordStamp } from './restorable-fields.ts';

/** A hash of the object's spec, the same for the same JSON whatever the order of its keys. */
function specHashOf(object: JsonObject): string {
  const spec = Object.hasOwn(object, 'spec') ? object['spec'] : undefined;
  // Keys sorted at every level; Object.fromEntries defines own properties, so a `__proto__` key stays a key.
  const canonical = JSON.stringify(spec ?? null, (_key, value: unknown) =>
    isJsonObject(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, value[key]]),
        )
      : value,
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

/** The object's uid, and with `uid-and-generation` its generation and spec hash; absent what the object has not (at a create). */
export function originOf(object: JsonObject, stamp: RecordStamp): RecordOrigin {
  const uid = valueAt(object, ['metadata', 'uid']);
  const generation = valueAt(object, ['metadata', 'generation']);
  const withGeneration =
    stamp === 'uid-and-generation' && typeof generation === 'number' && Number.isSafeInteger(generation);
  return {
    ...(typeof uid === 'string' && uid !== '' ? { uid } : {}),
    ...(withGeneration ? { generation, specHash: specHashOf(object) } : {}),
  };
}

/**
 * Whether a record written from `origin` is stale for `object`: written from another object (a record
 * with a uid restores only into the object of that uid), or from this one at a generation its write
 * cannot have come from (see the module's comment).
 */
export function isStale(origin: RecordOrigin, object: JsonObject): boolean {
  const uid = valueAt(object, ['metadata', 'uid']);
  if (origin.uid !== undefined && uid !== origin.uid) {
    return true;
  }
  const generation = valueAt(object, ['metadata', 'generation']);
  if (origin.generation === undefined || typeof generation !== 'number' || generation === origin.generation) {
    return false;
  }
  if (generation !== origin.generation + 1) {
    return true;
  }
  return origin.specHash === undefined || origin.specHash === specHashOf(object);
}
