// Lint: typescript-eslint, React, hooks and accessibility rules; formatting is Prettier's (npm run format).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'build-*/**',
      'node_modules/**',
      'public/**',
      'bench/results/**',
      'test-results/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['app/**/*.tsx'],
    ...react.configs.flat.recommended,
    settings: { react: { version: 'detect' } },
  },
  { files: ['app/**/*.tsx'], ...react.configs.flat['jsx-runtime'] },
  { files: ['app/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    files: ['app/**/*.tsx'],
    rules: {
      // autoFocus is used only on the first field a server refused, so a page posted without JS puts the
      // keyboard and the screen reader on the error (as an error summary's link would); and on the safe
      // choice (Avbryt) of the deactivation dialog, as the WAI-ARIA dialog pattern advises.
      'jsx-a11y/no-autofocus': 'off',
    },
  },
  {
    // Tests and benchmarks read answers and result files as loose JSON.
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Type-aware rules: a promise is awaited, returned or explicitly let go (void), never handed to something that
    // ignores it; no assertion that changes nothing; only errors (or Remix's Response) are thrown.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/only-throw-error': [
        'error',
        {
          allow: [
            { from: 'lib', name: 'Response' },
            { from: 'package', package: '@remix-run/server-runtime', name: 'TypedResponse' },
          ],
          allowThrowingUnknown: true,
        },
      ],
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
    },
  },
  {
    // The layers (docs/architecture.md): app/ (pages) -> server/ (procedures, services, HTTP) -> the database, and
    // domain/ (texts, schemas, limits, rules, domain errors) beside both, importing neither. Anything outside a
    // file's own folder is imported by its alias (package.json "imports"), so these patterns see every crossing.
    files: ['**/*.{ts,tsx,js}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./|~/)',
              message: 'Import from outside this folder by its alias: #app/, #domain/, #server/ ...',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|#domain/|\\./)',
              message: 'domain/ is pure: it imports only zod and domain/ (no app/, no server/, no I/O).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.js', 'prisma-free-migrations/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./|~/)', message: 'Import from outside this folder by its alias: #domain/, #server/ ...' },
            { regex: '^#(app|tests|bench)/', message: 'server/ never imports app/ (pages), tests or benchmarks.' },
          ],
        },
      ],
    },
  },
  {
    // Inside server/ the layers go one way, http -> trpc -> area -> db: the procedures (server/trpc/) and the services
    // of each area (server/<area>/) never import the HTTP layer (server/http/), which imports them. (This block
    // replaces the one above for these files, so it repeats its patterns.)
    files: ['server/*/**/*.ts'],
    ignores: ['server/http/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./|~/)', message: 'Import from outside this folder by its alias: #domain/, #server/ ...' },
            { regex: '^#(app|tests|bench)/', message: 'server/ never imports app/ (pages), tests or benchmarks.' },
            {
              regex: '^#server/http/',
              message: 'Procedures and services never import the HTTP layer (http -> trpc -> area -> db).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/**/*.server.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./|~/)', message: 'Import from outside this folder by its alias: #app/, #domain/ ...' },
            {
              regex: '^#server/',
              allowTypeImports: true,
              message: 'app/ takes from server/ only types; server code goes through an app/**/*.server.ts module.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
