// Long: the house rules are one ESLint config, each rule beside its reason (docs/architecture.md names them).
// Lint: typescript-eslint, React, hooks and accessibility rules; formatting is Prettier's (npm run format).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import local from './eslint-rules/index.js';

// The files of app/ that may import from server/ at run time, each with the reason; everything else in app/ takes
// only types from #server/ (the no-restricted-imports block of app/ below). The list is to shrink, never to
// grow: a new need goes through context.trpc instead.
const APP_SERVER_RUNTIME_IMPORTS = {
  'app/utils/bulk-files.server.ts': 'hands over the bulk templates and result files, and reads an uploaded list',
  'app/utils/downloads.server.ts': "the downloads' 503: the database's Retry-After and the plain page of server/http",
  'app/utils/login-input.server.ts': "reads the login body by its media type (server/http/media-type.ts's isJson)",
  'app/utils/passkeys.server.ts': "reads the passkey sign-in's binding cookie (server/auth/passkeys.ts)",
  'app/utils/sso.server.ts': "reads the SSO sign-in's binding cookie (server/auth/sso.ts)",
  'app/utils/step-up.server.ts': "asks whether a session is stepped up (server/auth/sessions.ts's isSteppedUp)",
  'app/utils/step-up-link.server.ts': "the step-up link's lifetime and isSteppedUp (server/auth/)",
};

// The imports server/ never makes, and those its inner layers never make (http -> trpc -> area -> db).
const SERVER_IMPORTS = [
  { regex: '^(\\.\\./|~/)', message: 'Import from outside this folder by its alias: #domain/, #server/ ...' },
  { regex: '^#(app|tests|bench)/', message: 'server/ never imports app/ (pages), tests or benchmarks.' },
];
const NOT_HTTP = {
  regex: '^#server/http/',
  message: 'Procedures and services never import the HTTP layer (http -> trpc -> area -> db).',
};
const NOT_TRPC = {
  regex: '^#server/trpc/',
  message: 'Services never import the procedures (server/trpc/), which call them (http -> trpc -> area -> db).',
};

const NO_AS_NEVER = {
  selector: 'TSAsExpression > TSNeverKeyword.typeAnnotation',
  message: 'No `as never`: it silences the type check. Type the value (or the library call) properly.',
};
/**
 * No property defined on a request or response of its own (`Object.defineProperty(res, ...)`): V8 turns such an
 * object's properties into a dictionary, and every later read of them in Node, Express and the middlewares takes the
 * slow path (the list's CPU a request fell by 29 % without one: server/http/ended.ts). Define it on the prototype.
 */
const NO_OWN_PROPERTY_ON_REQUESTS = {
  selector:
    "CallExpression[callee.object.name='Object'][callee.property.name=/^define(Property|Properties)$/][arguments.0.name=/^(req|res|request|response)$/]",
  message:
    'No property defined on a request or response itself: V8 makes its properties a dictionary (slow reads everywhere). Define it on the prototype (server/http/ended.ts).',
};
/**
 * A number or date in words goes through a formatter made once (domain/texts/numbers.ts's grouped, the Intl formats
 * of app/utils/text.ts): `toLocaleString` builds a new Intl formatter at each call (a /sims page made one per count).
 */
const NO_LOCALE_STRING = {
  selector: "CallExpression[callee.property.name='toLocaleString']",
  message:
    'No toLocaleString: it builds a formatter per call. Use grouped() (domain/texts/numbers.ts) or an Intl format made once.',
};
/** The modules whose reads every usage page and API call makes: through readRows / readRow, never em.execute. */
const HOT_READS = [
  'server/usage/sim.ts',
  'server/usage/overview.ts',
  'server/usage/company.ts',
  'server/usage/as-of.ts',
  'server/sims/usage.ts',
];
const NO_EXECUTE = {
  selector: "CallExpression[callee.property.name='execute']",
  message: 'A hot read goes through readRows / readRow (server/db/prepared.ts): a prepared statement, planned once.',
};

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
      // `as never` fits any type, so it switches the type check off where it stands: name the real type instead.
      'no-restricted-syntax': ['error', NO_AS_NEVER, NO_OWN_PROPERTY_ON_REQUESTS],
    },
  },
  {
    // The product's code formats numbers and dates with formatters made once (tests and benchmarks may not).
    files: ['{app,server,domain}/**/*.{ts,tsx,js}'],
    rules: { 'no-restricted-syntax': ['error', NO_AS_NEVER, NO_OWN_PROPERTY_ON_REQUESTS, NO_LOCALE_STRING] },
  },
  {
    // The usage reads of every page and API call are prepared statements (server/db/prepared.ts's readRows):
    // planned once per connection, not anew each time (the SIM page's overview was planned over 91 partitions of
    // raw records on every request: 20 ms of the database's time a page).
    files: HOT_READS,
    rules: {
      'no-restricted-syntax': ['error', NO_AS_NEVER, NO_OWN_PROPERTY_ON_REQUESTS, NO_LOCALE_STRING, NO_EXECUTE],
    },
  },
  {
    // A file over 250 lines says why on its first line (`// Long: <reason>`), or is split.
    files: ['**/*.{ts,tsx,js}'],
    plugins: { local },
    rules: { 'local/long-file-reason': 'error' },
  },
  {
    // No non-null `!`: a value that may be missing is checked (narrowing, ??, or domain/defined.ts's defined(),
    // which throws an Error naming what was missing). Tests are left out: there a missing value fails the test.
    files: ['{app,server,domain,scripts,bench}/**/*.{ts,tsx,js}'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
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
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: SERVER_IMPORTS }],
    },
  },
  {
    // Inside server/ the layers go one way, http -> trpc -> area -> db: the procedures (server/trpc/) and the services
    // of each area (server/<area>/) never import the HTTP layer (server/http/), which imports them. (This block
    // replaces the one above for these files, so it takes its patterns too.)
    files: ['server/trpc/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...SERVER_IMPORTS, NOT_HTTP] }],
    },
  },
  {
    // ... and the services (server/<area>/) never import the procedures (server/trpc/) either, which call them.
    files: ['server/*/**/*.ts'],
    ignores: ['server/http/**', 'server/trpc/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...SERVER_IMPORTS, NOT_HTTP, NOT_TRPC] }],
    },
  },
  {
    // app/ takes only types from #server/, except the files of APP_SERVER_RUNTIME_IMPORTS (a reason each, above).
    files: ['app/**/*.{ts,tsx}'],
    ignores: Object.keys(APP_SERVER_RUNTIME_IMPORTS),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./|~/)', message: 'Import from outside this folder by its alias: #app/, #domain/ ...' },
            {
              regex: '^#server/',
              allowTypeImports: true,
              message:
                'app/ takes only types from server/ (import type); run-time server code is reached through context.trpc ' +
                '(a file that must hand over a file or a stream is listed in APP_SERVER_RUNTIME_IMPORTS, eslint.config.js).',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
