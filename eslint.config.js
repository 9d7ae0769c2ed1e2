import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        Response: 'readonly',
        Headers: 'readonly',
        structuredClone: 'readonly',
        TextEncoder: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Money never passes through a JS number: parseFloat/Math on amounts are banned outright.
      'no-restricted-globals': ['error', { name: 'parseFloat', message: 'Amounts are bigint; never parse floats.' }],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'round', message: 'No Math on money: use bigint arithmetic.' },
        { object: 'Math', property: 'floor', message: 'No Math on money: use bigint arithmetic.' },
        { object: 'Math', property: 'ceil', message: 'No Math on money: use bigint arithmetic.' },
        { object: 'Math', property: 'pow', message: 'No Math on money: use bigint arithmetic.' },
      ],
    },
  },
  // Layer direction (STYLE.md): domain ← use cases and their ports ← http / operator / portal; the store
  // implements the ports from below (usecases/repositories.ts); main.ts picks the adapters.
  // people/, webhooks/ and mail/ are names of domain folders too: the adapters' folders of that name are
  // told apart by how far up the import climbs, one block per depth.
  ...[
    ['packages/server/src/domain/*.ts', '..'],
    ['packages/server/src/domain/*/*.ts', '../..'],
  ].map(([files, up]) => ({
    files: [files],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', 'fastify/*', '@fastify/*', 'kysely', 'pg', '@electric-sql/*', 'ioredis'],
              message: 'The domain knows no HTTP or SQL.',
            },
            {
              group: [
                '**/http/**',
                '**/operator/**',
                '**/portal/**',
                '**/store/**',
                '**/usecases/**',
                '**/venues/**',
                '**/app.ts',
                '**/deps.ts',
                `${up}/people/**`,
                `${up}/webhooks/**`,
                `${up}/mail/**`,
              ],
              message: 'The domain imports only the domain.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['packages/server/src/http/routes/**/*.ts', 'packages/server/src/operator/routes/**/*.ts'],
    ignores: ['**/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['./*', '**/routes/*', '!**/routes/index.ts'],
              message: 'A route never imports another route: shared wire mapping lives in http/wire/.',
            },
            { group: ['**/app.ts'], message: 'Routes take AppDeps from deps.ts, never app.ts (no import cycle).' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/venues/**'], message: 'A store never imports a venue: use cases tell the venue what moved (usecases/ports.ts).' },
            {
              group: [
                '**/usecases/**/*.ts',
                '!**/usecases/repositories.ts',
                '!**/usecases/**/*-repository.ts',
                '**/http/**',
                '**/operator/**',
                '**/portal/**',
                '**/app.ts',
                '**/deps.ts',
              ],
              message:
                'Stores are repositories: they import only the domain, the store and the ports they implement (usecases/repositories.ts, usecases/<area>/*-repository.ts).',
            },
            {
              group: ['**/usecases/repositories.ts'],
              allowTypeImports: true,
              message: 'A store implements the ports: it takes their types, nothing else.',
            },
          ],
        },
      ],
    },
  },
  // The adapters below the use cases never reach up into the HTTP layers or the composition root.
  {
    files: ['packages/server/src/people/**/*.ts', 'packages/server/src/venues/**/*.ts', 'packages/server/src/webhooks/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/http/**',
                '**/operator/**',
                '**/portal/**',
                '**/app.ts',
                '**/deps.ts',
                '**/main.ts',
                '**/background.ts',
                '**/seed.ts',
              ],
              message: 'Use cases and adapters never import the HTTP layers or the composition root.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/usecases/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/venues/**',
                '**/http/**',
                '**/operator/**',
                '**/portal/**',
                '**/app.ts',
                '**/deps.ts',
                '**/main.ts',
                '**/background.ts',
                '**/seed.ts',
              ],
              message:
                'A use case sees adapters only through its ports (usecases/ports.ts) and never imports the HTTP layers or the composition root.',
            },
            {
              group: ['**/store/**'],
              message: 'A use case writes through the repositories it is given (usecases/repositories.ts), never the store itself.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/deps.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', '**/operator/**', '**/portal/**', '**/app.ts'],
              message: 'deps.ts is what the app is built from: it names ports and adapters, never the HTTP layers.',
            },
          ],
        },
      ],
    },
  },
  // Every write is a use case: only the unit of work opens a transaction (a use case runs in it through
  // store.uow), and only a use case writes the audit trail. One adapter keeps its own: the simulated venue,
  // which stands for an outside exchange.
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      'packages/server/src/usecases/**',
      'packages/server/src/store/unit-of-work.ts',
      'packages/server/src/venues/simulated-venue.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message: "Only a use case opens a transaction (store.uow.run); a repository takes the caller's tx.",
        },
        {
          selector: "CallExpression[callee.property.name='record'][callee.object.property.name='audit']",
          message: 'Only a use case writes an audit entry, in its own transaction.',
        },
      ],
    },
  },
  // The web apps: the shell (app/) composes features; a feature, a component or a helper never reaches
  // up into it (what they need comes through the kit's context, the app's own lib/ context, or props).
  {
    files: ['packages/portal/src/**/*.{ts,tsx}', 'packages/desk/src/**/*.{ts,tsx}'],
    ignores: ['packages/*/src/app/**', 'packages/*/src/main.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '**/app/*'],
              message:
                "Features, components and lib/ never import the app shell (app/): take what you need from the web kit's context, lib/, or props.",
            },
            {
              group: ['@cambio/portal', '@cambio/desk', '**/portal/src/**', '**/desk/src/**'],
              message: 'One web app never imports the other: share through @cambio/web-kit.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/web-kit/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@cambio/portal', '@cambio/desk', '**/portal/**', '**/desk/**', '@cambio/server', '**/server/**'],
              message: 'The web kit knows neither app: what differs comes in through its context or props.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'packages/*/test/**', 'bench/**', 'scripts/**', 'packages/sdk/src/retry.ts'],
    rules: { 'no-restricted-properties': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
