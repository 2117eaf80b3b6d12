/** What the kubelet reports of one container (the pod status's containerStatuses entry), as a value. */
export interface TerminatedState {
  readonly exitCode: number;
  readonly reason: string;
  readonly message?: string;
  readonly signal?: number;
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly containerID: string;
}

export type ContainerState =
  | { readonly kind: 'waiting'; readonly reason: string; readonly message?: string }
  | { readonly kind: 'running'; readonly startedAt: Date; readonly containerID: string }
  | ({ readonly kind: 'terminated' } & TerminatedState);

export interface ContainerView {
  readonly name: string;
  readonly image: string;
  readonly state: ContainerState;
  readonly lastState: TerminatedState | undefined;
  readonly restartCount: number;
  /** The startup probe succeeded (or there is none) since the last start. */
  readonly started: boolean;
  readonly ready: boolean;
  /** The container ran at least once: the pod is no longer Pending. */
  readonly everStarted: boolean;
}
