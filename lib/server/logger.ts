import 'server-only';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';

/**
 * The dashboard's logs on stdout: JSON lines for machines (a log shipper, a container's driver), or, on a
 * terminal, one short line a person reads ("10:42:07 INFO  index: ready · http://localhost:3000"), the
 * fields after it. `LOG_FORMAT=json` or `pretty` chooses; otherwise a TTY gets the short lines. Key-bearing
 * headers are redacted at the logger as a second line of defence; the code never logs them to begin with.
 */
export type LogFormat = 'json' | 'pretty';

export function logFormat(
  env: Record<string, string | undefined> = process.env,
  tty = Boolean(process.stdout.isTTY),
): LogFormat {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT;
  return tty ? 'pretty' : 'json';
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** A level pino knows, else the default: a typo is named by the configuration's check (env.ts), not a crash here. */
const level = (given = process.env.LOG_LEVEL) =>
  given && LEVELS.includes(given) ? given : process.env.NODE_ENV === 'test' ? 'silent' : 'info';

export const LOG_OPTIONS: LoggerOptions = {
  level: level(),
  base: { app: 'collections-console' },
  redact: {
    paths: ['headers.authorization', 'headers["x-api-key"]', 'key', 'apiKey', '*.key', '*.apiKey'],
    censor: '[redacted]',
  },
};

/** The short lines: in this thread (no worker), the time of day, the level, the message, then the fields. */
export function prettyStream(colorize = Boolean(process.stdout.isTTY)): DestinationStream {
  return pretty({
    colorize,
    sync: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,app',
    singleLine: true,
  });
}

export const logger = logFormat() === 'pretty' ? pino(LOG_OPTIONS, prettyStream()) : pino(LOG_OPTIONS);
