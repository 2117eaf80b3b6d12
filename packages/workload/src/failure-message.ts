/**
 * Messages of failed writes for Events, logs and status conditions. A condition message must stay
 * the same while the cause does: a new message is a status write, and the watch event of that write
 * reconciles the workload at once, past the queue's backoff. Pods get a new random name on every
 * attempt, and the API server names the pod in its message (`Pod "web-x7k2p" is invalid: …`), so the
 * name is replaced by the `generateName`-style prefix, which is also how the ReplicaSet controller's
 * messages read (`pods "web-6d4cf56db6-" is forbidden: …`).
 */

/** The message of an error (its `message` for an Error, else the value as text). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `message` with every occurrence of `name` replaced by `prefix`.
 *
 * @example
 * stableMessage('Pod "web-x7k2p" is invalid: spec.containers[0].name: Invalid value: "Web"', { name: 'web-x7k2p', prefix: 'web-' })
 * // 'Pod "web-" is invalid: spec.containers[0].name: Invalid value: "Web"'
 */
export function stableMessage(message: string, object: { readonly name: string; readonly prefix: string }): string {
  return object.name === '' ? message : message.replaceAll(object.name, object.prefix);
}
