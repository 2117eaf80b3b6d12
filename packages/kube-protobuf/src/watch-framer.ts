import { DecodeError } from './decode-error.ts';

/** The media type of a protobuf watch, as an Accept header asks for it. */
export const PROTOBUF_WATCH_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';

const PREFIX = 4;

/** A frame no object of ours comes near (the API server refuses requests over 3 MiB); a bigger length is a broken stream. */
const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

export interface WatchFramerOptions {
  readonly maxFrameBytes?: number | undefined;
  readonly resource?: string | undefined;
}

/**
 * Splits a protobuf watch stream into frames: each is a 4-byte big-endian length, then that many bytes
 * (one WatchEvent). Takes the body's chunks as they come, cut anywhere (inside the length too); a frame
 * in one chunk is returned as a view of it, one spread over chunks is copied together once.
 */
export class WatchFramer {
  readonly #maxFrameBytes: number;
  readonly #resource: string | undefined;
  #parts: Uint8Array[] = [];
  #buffered = 0;
  /** Bytes needed before the next frame can be cut: its prefix, then its prefix and body. */
  #needed = PREFIX;
  /** Stream offset of the first buffered byte, for errors. */
  #offset = 0;

  constructor(options: WatchFramerOptions = {}) {
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.#resource = options.resource;
  }

  /** Adds a chunk; returns the frames it completes, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    if (chunk.length === 0) {
      return [];
    }
    this.#parts.push(chunk);
    this.#buffered += chunk.length;
    if (this.#buffered < this.#needed) {
      return [];
    }
    const data = this.#parts.length === 1 ? chunk : concat(this.#parts, this.#buffered);
    return this.#cut(data);
  }

  /** The stream ended: a partial frame left over is a truncated stream. */
  end(): void {
    if (this.#buffered > 0) {
      throw new DecodeError(`the stream ended inside a frame (${this.#buffered} bytes of ${this.#needed})`, {
        typeName: 'watch frame',
        resource: this.#resource,
        offset: this.#offset,
      });
    }
  }

  #cut(data: Uint8Array): Uint8Array[] {
    const frames: Uint8Array[] = [];
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let pos = 0;
    this.#needed = PREFIX;
    while (data.length - pos >= PREFIX) {
      const length = view.getUint32(pos);
      if (length > this.#maxFrameBytes) {
        throw new DecodeError(`a frame of ${length} bytes, over the limit of ${this.#maxFrameBytes}`, {
          typeName: 'watch frame',
          resource: this.#resource,
          offset: this.#offset + pos,
        });
      }
      if (data.length - pos - PREFIX < length) {
        this.#needed = PREFIX + length;
        break;
      }
      frames.push(data.subarray(pos + PREFIX, pos + PREFIX + length));
      pos += PREFIX + length;
    }
    this.#offset += pos;
    this.#parts = pos === data.length ? [] : [data.subarray(pos)];
    this.#buffered = data.length - pos;
    return frames;
  }
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
