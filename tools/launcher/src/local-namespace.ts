/**
 * A namespace the launcher needs on a local control plane (the SidecarSet revisions' namespace,
 * `kruise-system` unless told otherwise): created once when missing. Only with
 * --webhook-local-configuration, i.e. next to a local control plane; in a cluster the chart's release
 * namespace is the controllers' own and exists.
 */
import { defineResource, isAlreadyExists } from '@kruise-ts/controller-runtime';
import type { Client, KubeObject, Runnable } from '@kruise-ts/controller-runtime';
import type { Logger } from 'pino';

const namespaceResource = defineResource<KubeObject>({
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
});

export class LocalNamespace implements Runnable {
  readonly needLeaderElection = false;
  readonly #client: Client;
  readonly #name: string;
  readonly #logger: Logger;

  constructor(options: { readonly client: Client; readonly name: string; readonly logger: Logger }) {
    this.#client = options.client;
    this.#name = options.name;
    this.#logger = options.logger;
  }

  async start(signal: AbortSignal): Promise<void> {
    try {
      await this.#client.create(
        namespaceResource,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.#name } },
        { signal },
      );
      this.#logger.info({ namespace: this.#name }, 'Created the namespace of the SidecarSet revisions');
    } catch (error) {
      // Exists already (the usual case), or the user may not create namespaces: the controller then says what fails.
      if (!isAlreadyExists(error)) {
        this.#logger.warn(
          { err: error, namespace: this.#name },
          'Cannot create the namespace of the SidecarSet revisions',
        );
      }
    }
  }
}
