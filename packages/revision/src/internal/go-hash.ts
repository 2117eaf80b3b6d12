/**
 * Kubernetes' `hashutil.DeepHashObject(fnv.New32a(), jsonBytes)` for a JSON byte slice, which
 * OpenKruise uses for the volumeClaimTemplates hash and the env-from-metadata hash: go-spew's
 * `%#v` rendering of a `[]byte` (k8s.io/apimachinery `dump.ForHash`) hashed with 32-bit FNV-1a.
 * Note FNV-1a here; revision names use FNV-1 (revision-hash.ts).
 */

const FNV32_OFFSET_BASIS = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

/**
 * 32-bit FNV-1a (XOR, then multiply), as Go's `hash/fnv.New32a`. Worked example: for "a", 0x811c9dc5
 * XOR 0x61 = 0x811c9da4, times the prime mod 2³² = 0xe40c292c (3826002220), the published test vector.
 */
export function fnv1aHash32(bytes: Uint8Array): number {
  let hash = FNV32_OFFSET_BASIS;
  for (const byte of bytes) {
    hash = Math.imul((hash ^ byte) >>> 0, FNV32_PRIME) >>> 0;
  }
  return hash;
}

/**
 * go-spew's `%#v` text of a `[]byte` as `dump.ForHash` writes it: the type, then every byte as a
 * decimal number, space separated. Example: the JSON `null` → `([]uint8)[110 117 108 108]`.
 */
export function spewByteSlice(bytes: Uint8Array): string {
  return `([]uint8)[${Array.from(bytes, String).join(' ')}]`;
}

/**
 * The FNV-1a hash of go-spew's rendering of the UTF-8 bytes of `json`: what
 * `hashutil.DeepHashObject(fnv.New32a(), []byte(json))` leaves in the hasher. Callers print it in
 * decimal (OpenKruise stores it as a uint64, but it always fits in 32 bits).
 */
export function deepHashJsonBytes(json: string): number {
  return fnv1aHash32(new TextEncoder().encode(spewByteSlice(new TextEncoder().encode(json))));
}
