/**
 * Protobuf reads through the transport, against a local HTTP server standing in for the API server
 * (the real one: test/integration/protobuf-reads.test.ts): the Accept header per verb and kind and per
 * `apiContentType`, decoding by the answer's Content-Type (JSON all the same when the server says so),
 * the informer's field filter, and bad input (a truncated answer or frame): a DecodeError, counted,
 * and an informer whose watch restarts and catches up.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  compileFieldFilter,
  DecodeError,
  PROTOBUF_MEDIA_TYPE,
  PROTOBUF_WATCH_MEDIA_TYPE,
} from '@kruise-ts/kube-protobuf';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { Informer } from '../cache/informer.ts';
import { apiListWatcher } from '../cache/list-watcher.ts';
import { createClient } from './client.ts';
import type { KubeObject } from './kube-object.ts';
import { defineResource } from './resource-type.ts';
import { Transport } from './transport.ts';
import type { ApiContentType } from './content-type.ts';
import { watchResource } from './watch.ts';

const pods = defineResource<KubeObject>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
// Not a kind the protobuf tables cover (no custom resource needed: the client asks by kind).
const leases = { ...pods, group: 'coordination.k8s.io', plural: 'leases', kind: 'Lease' };

// A minimal protobuf writer: Pod {metadata=1 ObjectMeta {name=1, resourceVersion=6}, status=3 PodStatus
// {hostIP=5}}; PodList {metadata=1 ListMeta {resourceVersion=2}, items=2}; the k8s\0 envelope.
function varint(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  return [...out, rest];
}
function field(number: number, value: string | readonly number[]): number[] {
  const payload = typeof value === 'string' ? [...Buffer.from(value)] : [...value];
  return [(number << 3) | 2, ...varint(payload.length), ...payload];
}
function envelope(kind: string, raw: readonly number[]): Buffer {
  return Buffer.from([0x6b, 0x38, 0x73, 0, ...field(1, [...field(1, 'v1'), ...field(2, kind)]), ...field(2, raw)]);
}
function pod(name: string, resourceVersion: string): number[] {
  return [...field(1, [...field(1, name), ...field(6, resourceVersion)]), ...field(3, field(5, '10.0.0.1'))];
}
function podList(resourceVersion: string, ...items: (readonly number[])[]): Buffer {
  return envelope('PodList', [...field(1, field(2, resourceVersion)), ...items.flatMap((item) => field(2, item))]);
}
function frame(type: string, object: Buffer): Buffer {
  const event = Buffer.from([...field(1, type), ...field(2, field(1, [...object]))]);
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(event.length);
  return Buffer.concat([prefix, event]);
}

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

const seen: { path: string; accept: string | undefined }[] = [];
let handler: Handler = (_request, response) => response.end();
let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen.push({ path: request.url ?? '', accept: request.headers.accept });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

function transport(apiContentType?: ApiContentType): { transport: Transport; decodeErrors: string[] } {
  const decodeErrors: string[] = [];
  const kubeConfig = {
    getCurrentCluster: () => ({ server: `http://127.0.0.1:${String(port)}` }),
    applyToHTTPSOptions: () => Promise.resolve(),
  };
  const observer = {
    observeRequest: () => undefined,
    observeDecodeError: ({ resource, verb }: { resource: string; verb: string }) =>
      decodeErrors.push(`${verb} ${resource}`),
  };
  return {
    transport: new Transport({ kubeConfig, qps: 0, burst: 0, userAgent: 'test', observer, apiContentType }),
    decodeErrors,
  };
}

function answer(contentType: string, body: Buffer | string, status = 200): Handler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': contentType });
    response.end(body);
  };
}

describe('protobuf reads', () => {
  it('asks for protobuf for reads of built-in kinds, and decodes the answer with the filter', async () => {
    handler = answer(PROTOBUF_MEDIA_TYPE, podList('9', pod('a', '5')));
    const filter = compileFieldFilter('Pod', ['status.hostIP']);
    const list = await createClient(transport().transport).list(pods, { namespace: 'ns', fieldFilter: filter });
    expect(list.metadata.resourceVersion).toBe('9');
    expect(list.items).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'a', resourceVersion: '5' },
        spec: { containers: null },
        status: {},
      },
    ]);
    expect(seen[0]?.accept).toBe(`${PROTOBUF_MEDIA_TYPE}, application/json`);
  });

  it('reads JSON when the server answers JSON all the same, and asks for JSON for custom kinds and --api-content-type=json', async () => {
    handler = answer('application/json', JSON.stringify({ kind: 'Pod', metadata: { name: 'a' } }));
    const client = createClient(transport().transport);
    expect(await client.get(pods, { namespace: 'ns', name: 'a' })).toMatchObject({ metadata: { name: 'a' } });
    await client.get(leases, { namespace: 'ns', name: 'l' });
    await client.create(leases, { metadata: { name: 'l', namespace: 'ns' } });
    await createClient(transport('json').transport).get(pods, { namespace: 'ns', name: 'a' });
    await createClient(transport('json').transport).create(pods, { metadata: { name: 'a', namespace: 'ns' } });
    expect(seen.map(({ accept }) => accept)).toEqual([
      `${PROTOBUF_MEDIA_TYPE}, application/json`,
      'application/json',
      'application/json',
      'application/json',
      'application/json',
    ]);
  });

  it('asks for the answers of writes of an object or its status in protobuf and decodes them; JSON for other subresources', async () => {
    handler = answer(PROTOBUF_MEDIA_TYPE, envelope('Pod', pod('a', '7')));
    const client = createClient(transport().transport);
    const created = await client.create(pods, { metadata: { name: 'a', namespace: 'ns' } });
    expect(created).toMatchObject({ kind: 'Pod', metadata: { name: 'a', resourceVersion: '7' } });
    const key = { namespace: 'ns', name: 'a' };
    await client.update(pods, created);
    await client.updateStatus(pods, created);
    await client.patch(pods, key, { type: 'merge', body: { metadata: { labels: { x: 'y' } } } });
    await client.patchStatus(pods, key, { type: 'merge', body: { status: { message: 'm' } } });
    handler = answer('application/json', JSON.stringify({ kind: 'Scale' }));
    await client.patch(pods, key, { type: 'merge', body: {}, subresource: 'scale' });
    const both = `${PROTOBUF_MEDIA_TYPE}, application/json`;
    expect(seen.map(({ accept }) => accept)).toEqual([both, both, both, both, both, 'application/json']);
  });

  it('reads past the answer of a delete without decoding it, and keeps the connection for the next request', async () => {
    const ports = new Set<number>();
    handler = (request, response) => {
      ports.add(request.socket.remotePort ?? 0);
      // The API server reads a request's body before answering; then an answer that is not a valid
      // object (decoding it would fail the delete).
      request.resume();
      request.on('end', () => {
        answer(PROTOBUF_MEDIA_TYPE, Buffer.from('k8s\0 not a message'))(request, response);
      });
    };
    const { transport: api, decodeErrors } = transport();
    const client = createClient(api);
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) {
      await client.delete(pods, { namespace: 'ns', name }, { preconditions: { uid: name } });
    }
    expect(new Set(seen.map(({ accept }) => accept))).toEqual(new Set([`${PROTOBUF_MEDIA_TYPE}, application/json`]));
    expect(decodeErrors).toEqual([]);
    // undici's pool alternates between two connections even for requests one after another; a
    // connection closed after each answer would make six.
    expect(ports.size).toBeLessThanOrEqual(2);
  });

  it('reads an error Status in protobuf into the ApiError', async () => {
    const status = envelope('Status', [
      ...field(2, 'Failure'),
      ...field(3, 'pods "a" not found'),
      ...field(4, 'NotFound'),
      6 << 3,
      ...varint(404),
    ]);
    handler = answer(PROTOBUF_MEDIA_TYPE, status, 404);
    await expect(createClient(transport().transport).get(pods, { namespace: 'ns', name: 'a' })).rejects.toMatchObject({
      code: 404,
      message: expect.stringContaining('pods "a" not found') as unknown,
    });
  });

  it('fails a truncated answer with a DecodeError naming the resource, and counts it', async () => {
    const whole = podList('9', pod('a', '5'));
    handler = answer(PROTOBUF_MEDIA_TYPE, whole.subarray(0, whole.length - 3));
    const { transport: cut, decodeErrors } = transport();
    const error = await createClient(cut)
      .list(pods, { namespace: 'ns' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DecodeError);
    expect(error).toMatchObject({ resource: 'pods' });
    expect((error as DecodeError).offset).toBeGreaterThan(0);
    expect(decodeErrors).toEqual(['list pods']);
  });

  it('watches in protobuf, and fails a truncated frame with a counted DecodeError after the events before it', async () => {
    const stream = Buffer.concat([
      frame('ADDED', envelope('Pod', pod('a', '10'))),
      frame('MODIFIED', envelope('Pod', pod('a', '11'))),
    ]);
    handler = answer(PROTOBUF_WATCH_MEDIA_TYPE, stream.subarray(0, stream.length - 5));
    const { transport: cut, decodeErrors } = transport();
    const events: string[] = [];
    const options = { resourceVersion: '9', timeoutSeconds: 5, signal: AbortSignal.timeout(5000) };
    const error = await (async () => {
      for await (const event of watchResource(cut, pods, options)) {
        events.push(`${event.type} ${event.resourceVersion}`);
      }
    })().catch((caught: unknown) => caught);
    expect(events).toEqual(['ADDED 10']);
    expect(error).toBeInstanceOf(DecodeError);
    expect(decodeErrors).toEqual(['watch pods']);
    expect(seen[0]?.accept).toBe(`${PROTOBUF_WATCH_MEDIA_TYPE}, application/json`);
  });

  it('an informer whose watch breaks on a bad frame restarts it and catches up', async () => {
    let watches = 0;
    handler = (request, response) => {
      if (!(request.url ?? '').includes('watch=true')) {
        answer(PROTOBUF_MEDIA_TYPE, podList('9', pod('a', '5')))(request, response);
        return;
      }
      watches++;
      const good = frame('ADDED', envelope('Pod', pod('b', '10')));
      // The first watch sends half a frame and ends; the second the whole frame, then stays open.
      response.writeHead(200, { 'content-type': PROTOBUF_WATCH_MEDIA_TYPE });
      if (watches === 1) {
        response.end(good.subarray(0, 12));
      } else {
        response.write(good);
      }
    };
    const { transport: api, decodeErrors } = transport();
    const informer = new Informer<KubeObject>({
      listWatcher: apiListWatcher(createClient(api), { resource: pods, namespace: 'ns' }),
      description: 'pods',
      logger: pino({ level: 'silent' }),
      backoff: { initialMs: 10, maxMs: 10 },
    });
    const abort = new AbortController();
    const running = informer.run(abort.signal);
    await expect
      .poll(
        () =>
          informer
            .lister()
            .list()
            .map((object) => object.metadata?.name)
            .sort(),
        { timeout: 5000 },
      )
      .toEqual(['a', 'b']);
    abort.abort();
    server.closeAllConnections();
    await running;
    expect(decodeErrors).toEqual(['watch pods']);
    expect(watches).toBe(2);
  });
});
