/**
 * Revision hashes and names, as k8s.io/kubernetes pkg/controller/history computes them
 * (HashControllerRevision, ControllerRevisionName) and OpenKruise uses them.
 */

const FNV32_OFFSET_BASIS = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
/** k8s.io/apimachinery/pkg/util/rand: no vowels and no 0/1/3 so that hashes never spell words. */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** 253 (the longest object name) - 1 (the dash) - 29: room for any hash. */
const MAX_NAME_PREFIX = 223;

/**
 * 32-bit FNV-1 (multiply, then XOR; not FNV-1a) of some bytes, as Go's `hash/fnv.New32`.
 *
 * Worked example: for the single byte 0x61 ("a"), the offset basis times the prime is
 * 0x811c9dc5 × 0x01000193 mod 2³² = 0x050c5d1f, and XOR 0x61 gives 0x050c5d7e (84696446), the published
 * FNV-1 test vector for "a".
 */
export function fnv1Hash32(bytes: Uint8Array): number {
  let hash = FNV32_OFFSET_BASIS;
  for (const byte of bytes) {
    hash = (Math.imul(hash, FNV32_PRIME) ^ byte) >>> 0;
  }
  return hash;
}

/**
 * Maps every character of a string to the safe alphabet by its code point modulo 27, as
 * `rand.SafeEncodeString`. For decimal digits: 0→4 1→5 2→6 3→7 4→8 5→9 6→b 7→c 8→d 9→f
 * ('0' is 48, 48 mod 27 = 21, alphabet[21] = '4').
 */
export function safeEncodeString(text: string): string {
  let out = '';
  for (const char of text) {
    out += SAFE_ALPHABET[(char.codePointAt(0) ?? 0) % SAFE_ALPHABET.length] ?? '';
  }
  return out;
}

/**
 * The revision hash: FNV-1 over the raw data followed by the decimal collision count, printed in decimal
 * and safe-encoded, so that a changed template and every retry after a name collision get new names.
 *
 * Worked example: the seed's sample template (nginx:alpine, app: sample), defaulted by OpenKruise's
 * webhook, has data whose FNV-1 with "0" appended is 808096168; digit by digit 8→d 0→4 8→d 0→4 9→f 6→b
 * 1→5 6→b 8→d gives `d4d4fb5bd` (nine characters: the hash has as many as the number has digits).
 */
export function hashRevision(raw: string, collisionCount: number): string {
  const hash = fnv1Hash32(new TextEncoder().encode(raw + String(collisionCount)));
  return safeEncodeString(String(hash));
}

/** `<owner>-<hash>`, the owner name cut to 223 characters so the name stays within 253. */
export function revisionName(ownerName: string, hash: string): string {
  return `${ownerName.length > MAX_NAME_PREFIX ? ownerName.slice(0, MAX_NAME_PREFIX) : ownerName}-${hash}`;
}

/** The text after the last `-` of a revision name (the whole text when there is none). */
export function shortHash(name: string): string {
  return name.slice(name.lastIndexOf('-') + 1);
}
