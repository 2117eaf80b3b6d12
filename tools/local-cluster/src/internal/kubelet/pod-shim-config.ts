/** The environment variable through which the process kubelet configures the pod shim (pod-shim.ts). */
export const POD_SHIM_ENV = 'KRUISE_TS_PROCESS_KUBELET_SHIM';
