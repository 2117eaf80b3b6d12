import { describe, expect, it } from 'vitest';

import { podsInFlight } from './pods-in-flight.ts';
import type { FlightPod } from './status-subject.ts';

const owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'u1', controller: true };

function pod(
  name: string,
  status: FlightPod['status'] | undefined,
  extra: Partial<FlightPod['metadata']> = {},
): FlightPod {
  const metadata = { name, ownerReferences: [owner], ...extra };
  return status === undefined ? { metadata } : { metadata, status };
}

const ready = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };

describe('podsInFlight', () => {
  it('names the pods going away, updating in place, pending or not ready, by name', () => {
    const pods = [
      pod('web-e', ready),
      pod('web-d', ready, { deletionTimestamp: '2026-11-25T10:00:00Z' }),
      pod('web-c', {
        phase: 'Running',
        conditions: [
          { type: 'InPlaceUpdateReady', status: 'False' },
          { type: 'Ready', status: 'False' },
        ],
      }),
      pod('web-b', { phase: 'Pending' }),
      pod('web-a', { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] }),
      pod('web-f', undefined),
    ];
    expect(podsInFlight(pods, 'u1')).toEqual([
      { name: 'web-a', state: 'not ready' },
      { name: 'web-b', state: 'pending' },
      { name: 'web-c', state: 'updating in place' },
      { name: 'web-d', state: 'terminating' },
      { name: 'web-f', state: 'pending' },
    ]);
  });

  it('leaves out pods another object controls, or nothing does', () => {
    const other = { ...owner, uid: 'u2' };
    expect(
      podsInFlight(
        [
          pod('a', undefined, { ownerReferences: [other] }),
          pod('b', undefined, { ownerReferences: [] }),
          pod('c', undefined, { ownerReferences: [{ ...owner, controller: false }] }),
        ],
        'u1',
      ),
    ).toEqual([]);
  });
});
