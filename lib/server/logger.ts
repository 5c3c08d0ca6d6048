import 'server-only';
import pino from 'pino';

/**
 * Structured JSON logs on stdout. Key-bearing headers are redacted at the
 * logger as a second line of defence; the code never logs them to begin with.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: { app: 'collections-console' },
  redact: {
    paths: ['headers.authorization', 'headers["x-api-key"]', 'key', 'apiKey', '*.key', '*.apiKey'],
    censor: '[redacted]',
  },
});
