/**
 * The webhook under measurement, as apps/cloneset registers it (CLONESET_VALIDATION_WEBHOOK; the
 * benchmark, a tool, may not depend on an app, so the two values are repeated here: a rename there
 * makes the probe time out with the webhook's name in the error).
 */
export const ADMISSION_WEBHOOK = { name: 'vcloneset.kruise-ts.io', path: '/validate-apps-kruise-io-cloneset' } as const;
