/** Annotation by which kwok recognises the fake nodes it plays the kubelet for. */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
export const KWOK_NODE_ANNOTATION_VALUE = 'fake';

export interface KwokArgsOptions {
  readonly kubeconfig: string;
  /** File with our Stage documents (see kwok-stages.ts). */
  readonly stagesFile: string;
  readonly port: number;
}

export function kwokArgs(options: KwokArgsOptions): string[] {
  return [
    `--kubeconfig=${options.kubeconfig}`,
    `--config=${options.stagesFile}`,
    `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=${KWOK_NODE_ANNOTATION_VALUE}`,
    `--server-address=127.0.0.1:${String(options.port)}`,
    '--node-lease-duration-seconds=40',
  ];
}
