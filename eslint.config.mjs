import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import { defineConfig, globalIgnores } from 'eslint/config';

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', 'node_modules/**', 'bench/floor/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', '.data/**']),
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ['e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    // Client code must never reach the server-only layer (the key and env live there).
    files: ['components/**/*.{ts,tsx}', 'lib/query/**/*.{ts,tsx}', 'lib/format/**/*.{ts,tsx}', 'lib/api/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/lib/server/*', '**/lib/server/*'], message: 'lib/server is server-only: pass data down from a server component or fetch /api.' }] }],
    },
  },
]);
