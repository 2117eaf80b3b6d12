/** What was being decoded when the bytes did not fit, for {@link DecodeError}. */
export interface DecodeContext {
  /** The message type (`core/v1.Pod`), or the framing layer (`envelope`, `watch frame`). */
  readonly typeName: string;
  /** The resource the caller read (`pods`, `nodes`), when it said. */
  readonly resource?: string | undefined;
  /**
   * Byte offset in the input (the frame, for a watch event; the stream, for the framer) where decoding
   * stopped; -1 for an error that was not the decoder's own (a bug, wrapped so that only DecodeError leaves).
   */
  readonly offset: number;
}

/**
 * Protobuf that does not decode: truncated, a bad varint, a wire type that does not fit a known field,
 * an unknown envelope or kind, or a value Go's decoder or JSON encoder would refuse. The only error
 * the decoders throw: a caller treats it like a broken response (and restarts a watch).
 */
export class DecodeError extends Error {
  readonly typeName: string;
  readonly resource: string | undefined;
  readonly offset: number;

  constructor(reason: string, context: DecodeContext, options?: ErrorOptions) {
    const of = context.resource === undefined ? '' : ` (${context.resource})`;
    super(`cannot decode ${context.typeName}${of} at byte ${context.offset}: ${reason}`, options);
    this.name = 'DecodeError';
    this.typeName = context.typeName;
    this.resource = context.resource;
    this.offset = context.offset;
  }
}
