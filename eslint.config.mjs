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
    // Test helpers start sandboxes and fake things: no product code may lean on them.
    target: [
      './app',
      './components',
      './lib/api',
      './lib/server',
      './lib/query',
      './lib/format',
      './proxy.ts',
      './instrumentation.ts',
    ],
    from: './lib/testing',
    message: 'lib/testing is for tests only.',
  },
  {
    // Pages and components read data through lib/query or the server data layer, never the client directly.
    target: ['./app', './components', './lib/query', './proxy.ts'],
    from: './lib/server/upstream.ts',
    message: 'Only the data layer (lib/server/data.ts) talks to the upstream client.',
  },
];

const testZones = zones
  .filter((zone) => zone.from !== './lib/testing')
  .map((zone) => (zone.except ? { ...zone, except: [...zone.except, './testing'] } : zone));

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
    rules: {
      'import/no-restricted-paths': ['error', { zones }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
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
