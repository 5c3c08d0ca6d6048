import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('.', import.meta.url)),
      // `server-only` throws outside Next's server bundles; tests run on the server anyway.
      'server-only': fileURLToPath(new URL('./test/server-only-stub.ts', import.meta.url)),
    },
  },
  test: {
    include: ['{lib,sandbox,scripts,components,app}/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    pool: 'forks',
  },
});
