import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', fetch: 'readonly', AbortController: 'readonly', Response: 'readonly', Headers: 'readonly', structuredClone: 'readonly', TextEncoder: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Money never passes through a JS number: parseFloat/Math on amounts are banned outright.
      'no-restricted-globals': ['error', { name: 'parseFloat', message: 'Amounts are bigint; never parse floats.' }],
      'no-restricted-properties': ['error',
        { object: 'Math', property: 'round', message: 'No Math on money: use bigint arithmetic.' },
        { object: 'Math', property: 'floor', message: 'No Math on money: use bigint arithmetic.' },
        { object: 'Math', property: 'ceil', message: 'No Math on money: use bigint arithmetic.' },
        { object: 'Math', property: 'pow', message: 'No Math on money: use bigint arithmetic.' }],
    },
  },
  {
    files: ['**/*.test.ts', 'packages/*/test/**', 'bench/**', 'scripts/**', 'packages/sdk/src/retry.ts'],
    rules: { 'no-restricted-properties': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
