import type { DecodeOptions } from './guarded.ts';
import { decodeWatchEvent } from './watch-event.ts';
import type { WatchEvent } from './watch-event.ts';
import { WatchFramer } from './watch-framer.ts';
import type { WatchFramerOptions } from './watch-framer.ts';

/** The events of a protobuf watch body, decoded as its chunks arrive; a broken stream throws DecodeError. */
export async function* decodeWatchStream(
  chunks: AsyncIterable<Uint8Array>,
  options: DecodeOptions & WatchFramerOptions = {},
): AsyncGenerator<WatchEvent, void, undefined> {
  const framer = new WatchFramer(options);
  for await (const chunk of chunks) {
    for (const frame of framer.push(chunk)) {
      yield decodeWatchEvent(frame, options);
    }
  }
  framer.end();
}
