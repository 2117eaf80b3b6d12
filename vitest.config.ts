import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Two layers: `unit` (pure code, no cluster, fast) and `integration` (one real control plane for the
 * whole run, started by the global setup; one namespace per test). Both resolve workspace packages to
 * their TypeScript sources through the `@kruise-ts/source` export condition.
 */
const conditions = ['@kruise-ts/source', ...defaultServerConditions];

/**
 * Two integration files at a time: three gained 2-5% on 2 cores (docs/testing.md, Results) and failed
 * timing-bound tests under load in a clean-clone run, so the default stays at two;
 * `KRUISE_TS_INTEGRATION_WORKERS` sets another number on a machine with more cores.
 */
const integrationWorkers = Number(process.env['KRUISE_TS_INTEGRATION_WORKERS'] ?? '2');

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@kruise-ts/source'] } },
  test: {
    execArgv: ['--conditions=@kruise-ts/source'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{packages,apps,tools}/*/src/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['{packages,apps,tools}/*/test/integration/**/*.test.ts'],
          // The control plane, then one conversion webhook for the run (tools/launcher/src/testing).
          globalSetup: [
            'tools/local-cluster/src/testing/global-setup.ts',
            'tools/launcher/src/testing/conversion-global-setup.ts',
          ],
          // Waiting on a real API server: bounded waits live in the tests, these are only backstops.
          testTimeout: 120_000,
          hookTimeout: 600_000,
          maxWorkers: integrationWorkers,
        },
      },
    ],
  },
});
