/** The shapes of the generated wire tables (`wire-tables.generated.ts`), as tools/gen-wire-tables writes them. */

/** An API kind an envelope may carry: apiVersion, kind, and the Go struct (`core/v1.Pod`) its bytes are. */
export type WireKind = readonly [apiVersion: string, kind: string, typeName: string];

/**
 * One protobuf field of a Go struct: its number, its JSON name ('' when the struct is inlined into its
 * parent's JSON), its Go type (`string`, `*int64`, `[]core/v1.Container`, `map[string]Quantity`,
 * `Time`, ...) and its JSON options (`omitempty`, `omitzero`, `inline`, space-separated).
 */
export type WireField = readonly [number: number, json: string, type: string, options: string];

/** Every Go struct by name, its protobuf fields by number. */
export type WireStructs = Readonly<Record<string, readonly WireField[]>>;
