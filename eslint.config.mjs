import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import { defineConfig, globalIgnores } from 'eslint/config';

/**
 * The rooms of the house (README, Architecture) as lint rules: each zone names
 * a folder (`target`) and what it must never import (`from`). A wrong import
 * fails `npm run lint`, in CI.
 */
const OUTSIDE_LIB = [
  './app',
  './components',
  './sandbox',
  './scripts',
  './e2e',
  './bench',
  './proxy.ts',
  './instrumentation.ts',
];
const zones = [
  {
    // The key and the environment live in lib/server; the browser's code never reaches it.
    target: ['./components', './lib/query', './lib/format', './lib/api'],
    from: './lib/server',
    message: 'lib/server is server-only: pass data down from a server component or fetch /api.',
  },
  // The contract is shared by server, browser and sandbox: it depends on nothing of ours.
  ...[
    { from: './lib', except: ['./api'] },
    { from: OUTSIDE_LIB.filter((path) => path !== './sandbox') },
    { from: './sandbox' },
  ].map((zone) => ({
    target: './lib/api',
    ...zone,
    message: 'lib/api is the contract: it imports nothing but lib/api (and zod).',
  })),
  // The sandbox is the upstream: it knows the contract and nothing of the dashboard.
  ...[{ from: './lib', except: ['./api'] }, { from: OUTSIDE_LIB.filter((path) => path !== './sandbox') }].map(
    (zone) => ({ target: './sandbox', ...zone, message: 'The sandbox may import lib/api only.' }),
  ),
  {
    // Test helpers (test/) start sandboxes and fake things: no product code may lean on them.
    target: [
      './app',
      './components',
      './lib/api',
      './lib/server',
      './lib/query',
      './lib/format',
      './sandbox',
      './proxy.ts',
      './instrumentation.ts',
    ],
    from: './test',
    message: 'test/ holds the tests’ helpers: no product code may lean on them.',
  },
  {
    // e2e/ uses scripts/' tools (Chromium, first-load JS, a PostgreSQL); scripts never reach into the e2e suite.
    target: './scripts',
    from: './e2e',
    message: 'scripts/ does not import e2e/: put what both need in scripts/ (or e2e/ when only the suite needs it).',
  },
  {
    // UI primitives are the bottom of components/: they import no feature's components.
    target: './components/ui',
    from: './components',
    except: ['./ui'],
    message:
      'components/ui holds primitives: they import no feature (pass values in, or move the shared piece into ui).',
  },
  {
    // Pages and components read data through lib/query or the server data layer, never the client directly.
    target: ['./app', './components', './lib/query', './proxy.ts'],
    from: './lib/server/upstream.ts',
    message: 'Only the data layer (lib/server/data.ts) talks to the upstream client.',
  },
];

/**
 * The server's rooms, one way down (README, Architecture): the request side (reads/, export/, the data
 * layer, the route wrapper, proxy.ts) reaches the runtime; the runtime builds the features; features stand
 * on the database and the core (env, logger, clock, errors, context, access, upstream client), and never on
 * each other, the runtime or the request side. A folder loop cannot be written without breaking one of these.
 */
const server = (path) => `./lib/server/${path}`;
const REQUEST_SIDE = ['reads', 'export', 'runtime.ts', 'data.ts', 'route.ts'].map(server);
const FEATURES = ['search-index', 'audit', 'observability', 'views'].map(server);
const CORE = [
  'env.ts',
  'logger.ts',
  'clock.ts',
  'errors.ts',
  'context.ts',
  'access.ts',
  'auth',
  'upstream.ts',
  'threads',
  'security-headers.ts',
  'startup.ts',
  'sandbox-examples.ts',
].map(server);
const serverZones = (tests) => [
  {
    target: CORE,
    from: [...REQUEST_SIDE, ...FEATURES, server('database')],
    message: 'The core is the ground floor: it imports no feature, database, runtime or request-side module.',
  },
  {
    target: server('database'),
    from: [...REQUEST_SIDE, ...FEATURES],
    message: 'lib/server/database owns the connection and migrations: features import it, never the reverse.',
  },
  ...FEATURES.map((feature) => ({
    target: feature,
    // A feature's tests may build a runtime to run it as the server does.
    from: [
      ...REQUEST_SIDE.filter((path) => !tests || path !== server('runtime.ts')),
      ...FEATURES.filter((other) => other !== feature),
    ],
    message:
      'A feature receives what it needs from the runtime (lib/server/runtime.ts): it imports no other feature, the runtime or the request side.',
  })),
  {
    target: server('runtime.ts'),
    from: [server('reads'), server('export'), server('data.ts'), server('route.ts')],
    message: 'The runtime builds the parts; the request side uses it, never the reverse.',
  },
  // Inside the index: a request's reads never stand on the sync's code, and what both use stands on neither.
  ...(tests
    ? []
    : [
        {
          target: server('search-index/read'),
          from: server('search-index/write'),
          message: 'search-index/read/ is what a request runs: it imports nothing of the sync (write/).',
        },
        {
          target: server('search-index/shared'),
          from: [server('search-index/read'), server('search-index/write')],
          message: 'search-index/shared/ is what read/ and write/ both use: it imports neither.',
        },
      ]),
];

const testZones = [...zones.filter((zone) => zone.from !== './test'), ...serverZones(true)];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    '.next/**',
    'node_modules/**',
    'bench/floor/**',
    'test-results/**',
    'playwright-report/**',
    'next-env.d.ts',
    '.data/**',
  ]),
  {
    // The import plugin reads no package's code for its exports: PGlite's bundle overflowed its parser's stack
    // ("Maximum call stack size exceeded" on every lint), and no rule here checks a package's exports.
    settings: { 'import/ignore': ['node_modules'] },
    rules: {
      'import/no-restricted-paths': ['error', { zones: [...zones, ...serverZones(false)] }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // A file per job, a function a screen or two long: no closure of hundreds of lines can regrow.
    files: ['lib/server/**/*.ts'],
    ignores: ['lib/server/database/migrations/**', '**/*.test.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests keep the rooms' rules but may use the test helpers.
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'import/no-restricted-paths': ['error', { zones: testZones }] },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ['e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
]);
