/**
 * What the integration project's global setup provides to every test file (`inject(...)`). Imported
 * for its type declaration by every helper that injects, so that packages which only import the
 * helpers see it too.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfigPath: string;
    /** Built tool binaries by name (`helm`, `kube`, ...); empty when an external cluster is used. */
    toolBinaries: Record<string, string>;
  }
}

export {};
