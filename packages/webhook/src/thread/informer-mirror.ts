/**
 * Posts an informer's changes to the admission thread: every object on add and update (the thread
 * keeps its own copy), the key on delete, and `synced` once the informer has synced. Objects are
 * structured-cloned on posting, so only small caches (SidecarSets, namespaces, revisions) should be
 * mirrored, never pods.
 */
import { objectKey } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import type { MirroredInformer } from './thread-handler.ts';
import type { ToThread } from './thread-messages.ts';

export interface MirrorTarget {
  /** The cache's name on the admission thread. */
  readonly name: string;
  readonly informer: MirroredInformer;
  readonly post: (message: ToThread) => void;
}

export function mirrorInformer({ name, informer, post }: MirrorTarget, signal: AbortSignal): void {
  const upsert = (object: DeepReadonly<KubeObject>): void => {
    if (!signal.aborted) {
      post({ type: 'upsert', store: name, object });
    }
  };
  informer.addEventHandler({
    onAdd: upsert,
    onUpdate: (_old, object) => {
      upsert(object);
    },
    onDelete: (object) => {
      if (!signal.aborted) {
        post({ type: 'delete', store: name, key: objectKey(object) });
      }
    },
  });
  void informer.waitForSync(signal).then((synced) => {
    if (synced && !signal.aborted) {
      post({ type: 'synced', store: name });
    }
  });
}
