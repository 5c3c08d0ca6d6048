import { describe, expect, it } from 'vitest';
import { sandboxConfig } from './config';

describe('sandbox configuration', () => {
  it('has working defaults', () => {
    expect(sandboxConfig({})).toMatchObject({
      port: 4010,
      host: '127.0.0.1',
      faults: false,
      slowMs: 15_000,
      testRows: false,
    });
  });

  it('holds the test-only rows with SANDBOX_TEST_ROWS=1 only', () => {
    expect(sandboxConfig({ SANDBOX_TEST_ROWS: '1' }).testRows).toBe(true);
    expect(sandboxConfig({ SANDBOX_TEST_ROWS: '0' }).testRows).toBe(false);
  });

  it.each([
    [{ SANDBOX_PORT: '' }, 'SANDBOX_PORT must be a port number'],
    [{ SANDBOX_PORT: '70000' }, 'SANDBOX_PORT'],
    [{ SANDBOX_SLOW_MS: 'abc' }, 'SANDBOX_SLOW_MS must be a whole number of milliseconds'],
    [{ SANDBOX_SLOW_MS: '-5' }, 'SANDBOX_SLOW_MS'],
    [{ SANDBOX_FAULTS: 'yes' }, 'SANDBOX_FAULTS'],
    [{ SANDBOX_TEST_ROWS: 'yes' }, 'SANDBOX_TEST_ROWS'],
  ])('rejects %j', (env, message) => {
    expect(() => sandboxConfig(env)).toThrow(message);
  });
});
