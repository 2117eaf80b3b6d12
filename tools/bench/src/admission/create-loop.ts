/** The measured loop: CloneSets created one after the other, each create timed by the client. */
import type { Client } from '@kruise-ts/controller-runtime';

import { cloneSetResource } from '../measure/workloads.ts';
import { loopCloneSet, loopName } from './cloneset.ts';

/**
 * Creates `count` CloneSets `<prefix>-00000`, … in `namespace`, sequentially (one request in flight,
 * as `kubectl apply` of many files does); the milliseconds of each, from sending the request to the
 * parsed answer. A failed create fails the loop: every one of them is a valid CloneSet.
 */
export async function timedCreates(
  client: Client,
  input: { readonly namespace: string; readonly prefix: string; readonly count: number },
): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < input.count; index += 1) {
    const manifest = loopCloneSet(loopName(input.prefix, index), input.namespace);
    const started = performance.now();
    await client.create(cloneSetResource, manifest);
    samples.push(performance.now() - started);
  }
  return samples;
}
