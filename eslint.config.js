// One lint configuration for the whole tree (`npm run lint`). TypeScript files are linted
// with type information from their own workspace's tsconfig, so each sees the same types
// (and the same absence of DOM or Node types) that `npm run typecheck` does.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  // Only JavaScript and TypeScript are linted: JSON (fixtures, recordings) never is.
  globalIgnores(['**/dist/', '**/node_modules/', 'web/public/', '**/test-results/', '**/playwright-report/', '.racelab/']),
  // A disable comment that no longer silences anything is an error, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The check configs include the test files, which the build configs leave out.
        project: [
          'shared/tsconfig.check.json',
          'server/tsconfig.check.json',
          'tools/tsconfig.check.json',
          'web/tsconfig.json',
          'e2e/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Closures here are written as methods (store actions, WorkerContext, the scenario kit)
      // and use no `this`: every finding was one of those, destructured or passed on.
      '@typescript-eslint/unbound-method': 'off',
      // An async function with no await is how an implementation meets a Promise-returning
      // interface here, and it turns a throw into a rejection, which callers rely on.
      '@typescript-eslint/require-await': 'off',
      // Passing a caught error or an abort reason on unchanged is right; only-throw-error allows the same.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // `const { field: _, ...rest } = x` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.test.ts'],
    rules: {
      // Vitest's asymmetric matchers (expect.stringContaining, expect.any, ...) are typed `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    // Plain JavaScript and the root vitest config belong to no tsconfig: lint them without types.
    files: ['**/*.{js,mjs,cjs}', 'vitest.config.ts'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
]);
