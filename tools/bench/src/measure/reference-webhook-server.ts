/**
 * The floor of the pod webhook's latency in sidecarset-scale: a mutating webhook that does nothing,
 * in a Node.js process of its own with nothing else to do. The API server calls it for the same
 * pods as the contender's, so its admission duration is what any webhook costs on this machine at
 * that moment (the API server's own CPU, connections, TLS). Run by reference-webhook.ts: prints
 * `{"port":…,"caPem":…}` once it listens, then `called` at its first request; exits when stdin closes.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';

import { generateCertificateAuthority, generateServingCertificate } from '@kruise-ts/webhook';

const now = Date.now();
const ca = await generateCertificateAuthority({ commonName: 'kruise-ts-bench-reference-ca', now });
const serving = await generateServingCertificate({ ca, dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], now });
let called = false;
const server = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request?: { uid?: string } };
    const body = JSON.stringify({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: review.request?.uid ?? '', allowed: true },
    });
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    response.end(body);
    if (!called) {
      called = true;
      process.stdout.write('called\n');
    }
  });
});
// The same keep-alive as the contenders' webhook server (controller-runtime's https-webhook-listener.ts).
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, caPem: ca.certPem })}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
