/**
 * Go's encoding/json applied to a generic value (`map[string]interface{}`, `[]interface{}`, float64,
 * string, bool, nil), which is how OpenKruise writes ControllerRevision data: keys sorted at every
 * level, no whitespace, HTML-safe escaping and Go's float formatting. Revision hashes are taken over
 * these exact bytes, so every rule below is one that changes a hash when it is wrong.
 */

/** A JSON value as produced by `JSON.parse`. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Characters Go escapes, or that JavaScript strings can hold but Go strings cannot (lone surrogates). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched here
const NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * Quotes a string as Go's encoding/json does with HTML escaping on (its default): `<`, `>`, `&` become
 * `\u003c`, `\u003e`, `\u0026`; U+2028 and U+2029 become `\u2028`, `\u2029`; `\b \f \n \r \t` use short
 * escapes (Go 1.22+) and other control characters `\u00XX` in lower case. A lone surrogate becomes a
 * literal U+FFFD, because Go's decoder already replaced it so when it read the JSON.
 *
 * Example: `goQuote('a<b & "c"')` is `"a\u003cb \u0026 \"c\""`.
 */
export function goQuote(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) {
    return `"${text}"`;
  }
  let out = '"';
  for (const char of text.toWellFormed()) {
    out += escapeChar(char);
  }
  return `${out}"`;
}

function escapeChar(char: string): string {
  const short = SHORT_ESCAPES[char];
  if (short !== undefined) {
    return short;
  }
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || char === '<' || char === '>' || char === '&' || code === 0x2028 || code === 0x2029) {
    return `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return char;
}

/**
 * Formats a float64 as encoding/json does. JavaScript's shortest round-trip formatting agrees with Go's
 * (`strconv.FormatFloat(f, 'f' or 'e', -1, 64)` with exponents below 1e-6 and from 1e21, `e-07`
 * shortened to `e-7`): 30 → `30`, 0.5 → `0.5`, 1e21 → `1e+21`, 1e-7 → `1e-7`. Only -0 differs (Go
 * keeps the sign). NaN and ±Inf are errors in Go as well.
 */
export function goNumber(value: number): string {
  if (!Number.isFinite(value)) {
    throw new TypeError(`json: unsupported value: ${String(value)}`);
  }
  return Object.is(value, -0) ? '-0' : String(value);
}

/**
 * Orders strings as Go compares them: by their UTF-8 bytes, which is code point order. JavaScript's `<`
 * compares UTF-16 code units and puts U+10000 and above before U+E000–U+FFFF; only then does this
 * walk code points.
 */
export function compareGoStrings(a: string, b: string): number {
  if (!hasSurrogate(a) && !hasSurrogate(b)) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const left = codePoints(a);
  const right = codePoints(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) {
      return difference;
    }
  }
  return left.length - right.length;
}

function codePoints(text: string): number[] {
  const points: number[] = [];
  for (const char of text) {
    points.push(char.codePointAt(0) ?? 0);
  }
  return points;
}

function hasSurrogate(text: string): boolean {
  return /[\ud800-\udfff]/.test(text);
}

/** The keys of a JSON object as Go would write them: well-formed and in byte order. */
export function goSortedKeys(object: object): string[] {
  return Object.keys(object).sort((a, b) => compareGoStrings(a.toWellFormed(), b.toWellFormed()));
}

/**
 * Marshals a JSON value exactly as Go's `json.Marshal` marshals the same value decoded into
 * `interface{}`: object keys sorted, no whitespace, {@link goQuote} strings, {@link goNumber} numbers.
 *
 * Example: `marshalGoJson({ b: [1.5, '<'], a: null })` is `{"a":null,"b":[1.5,"\u003c"]}`.
 */
export function marshalGoJson(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (typeof value === 'string') {
    return goQuote(value);
  }
  if (typeof value === 'number') {
    return goNumber(value);
  }
  if (typeof value === 'boolean') {
    return value ? 'true' : 'false';
  }
  if (typeof value === 'object') {
    return Array.isArray(value) ? `[${value.map(marshalGoJson).join(',')}]` : marshalObject(value);
  }
  throw new TypeError(`json: unsupported type: ${typeof value}`);
}

function marshalObject(object: object): string {
  const record = object as Readonly<Record<string, unknown>>;
  const members = goSortedKeys(object).map((key) => `${goQuote(key)}:${marshalGoJson(record[key])}`);
  return `{${members.join(',')}}`;
}
