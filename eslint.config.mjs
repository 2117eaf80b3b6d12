// Shared lint configuration: strict type-aware TypeScript rules, nx module boundaries (the dependency
// direction apps -> workload packages -> sharding -> runtime -> api) and the complexity budget of the style guide.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const sourceConstraints = [
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: ['type:workload', 'type:sharding', 'type:runtime', 'type:api'],
  },
  {
    sourceTag: 'type:workload',
    onlyDependOnLibsWithTags: ['type:workload', 'type:sharding', 'type:runtime', 'type:api'],
  },
  // Sharding (@kruise-ts/sharding) plugs into the runtime's manager; the runtime knows only its gate.
  { sourceTag: 'type:sharding', onlyDependOnLibsWithTags: ['type:runtime', 'type:api'] },
  { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: ['type:runtime', 'type:api'] },
  { sourceTag: 'type:api', onlyDependOnLibsWithTags: ['type:api'] },
  // Tooling may read the apps' configuration (type:app-config, @kruise-ts/app-config: the feature gate
  // table, OpenKruise's flags) to check the chart's flags the way the apps parse them, and the buckets
  // and ring of sharding (type:sharding) to check a sharded install, but not the workload packages themselves.
  {
    sourceTag: 'type:tooling',
    onlyDependOnLibsWithTags: ['type:tooling', 'type:app-config', 'type:sharding', 'type:runtime', 'type:api'],
  },
  // The launcher runs apps (all in one process, and the demo); nothing depends on it.
  {
    sourceTag: 'type:launcher',
    onlyDependOnLibsWithTags: [
      'type:app',
      'type:workload',
      'type:sharding',
      'type:runtime',
      'type:api',
      'type:tooling',
    ],
  },
];

// Tests may also use the tooling (the local control plane and its test helpers).
const testConstraints = sourceConstraints.map((constraint) => ({
  ...constraint,
  onlyDependOnLibsWithTags: [...new Set([...constraint.onlyDependOnLibsWithTags, 'type:tooling'])],
}));

const boundaries = (depConstraints) => [
  'error',
  { enforceBuildableLibDependency: false, allow: [], depConstraints, checkDynamicDependenciesExceptions: [] },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(sourceConstraints),
      '@typescript-eslint/consistent-type-imports': 'error',
      // Leaving fields out of a copy by destructuring them away is how a transform drops what it does not keep.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // One shape for every branch: a one-line if without braces reads as a different kind of statement.
      curly: ['error', 'all'],
      '@typescript-eslint/explicit-module-boundary-types': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // @kubernetes/client-node models are generated classes used as plain data shapes.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@kruise-ts/*/src/*', '@kruise-ts/*/dist/*'],
              message: 'Import a package through its public entry point.',
            },
          ],
        },
      ],
      complexity: ['error', 10],
      'max-depth': ['error', 3],
      'max-params': ['error', 3],
      'max-statements': ['error', 20],
    },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(testConstraints),
      // Table-driven tests and their fixtures read best as long, flat functions.
      'max-statements': 'off',
      complexity: 'off',
      '@typescript-eslint/explicit-module-boundary-types': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
