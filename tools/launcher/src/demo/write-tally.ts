/** Counts the controller's successful API writes by resource, verb and subresource, for the summary. */
import type { RequestObserver, RequestRecord } from '@kruise-ts/controller-runtime';

const RESOURCE_PATH = /^\/(?:api\/v1|apis\/[^/]+\/[^/]+)\/(?:namespaces\/[^/]+\/)?([^/]+)(?:\/[^/]+(?:\/([^/]+))?)?$/;

export class WriteTally implements RequestObserver {
  readonly #counts = new Map<string, number>();

  observeRequest(record: RequestRecord): void {
    if (record.method === 'GET' || record.dryRun === true || !record.code.startsWith('2')) {
      return;
    }
    const match = RESOURCE_PATH.exec(record.path);
    if (match === null) {
      return;
    }
    const resource = match[2] === undefined ? (match[1] ?? '') : `${match[1] ?? ''}/${match[2]}`;
    const key = `${resource} ${record.verb}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  /** Writes to a resource (with its subresources when `withSubresources`). */
  total(resource: string, withSubresources = true): number {
    let sum = 0;
    for (const [key, count] of this.#counts) {
      const name = key.split(' ')[0] ?? '';
      if (name === resource || (withSubresources && name.startsWith(`${resource}/`))) {
        sum += count;
      }
    }
    return sum;
  }

  /** `pods: create 5, patch 5, pods/status patch 10` */
  describe(): string {
    return [...this.#counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, count]) => `${key} ${String(count)}`)
      .join(', ');
  }

  snapshot(): Map<string, number> {
    return new Map(this.#counts);
  }
}
