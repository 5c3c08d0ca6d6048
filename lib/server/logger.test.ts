import { Writable } from 'node:stream';
import pino from 'pino';
import pretty from 'pino-pretty';
import { describe, expect, it } from 'vitest';
import { LOG_OPTIONS, logFormat } from './logger';

/** Issue 36, item 7: a person at a terminal reads short lines; a machine (not a TTY) gets JSON. */
describe('the log format', () => {
  it('is short lines on a terminal, JSON otherwise, and LOG_FORMAT decides when given', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(logFormat({ LOG_FORMAT: 'yaml' }, false)).toBe('json');
  });

  it('a short line: the time, the level, the message and its fields, a key still redacted', () => {
    let text = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
    const log = pino(
      { ...LOG_OPTIONS, level: 'info' },
      pretty({
        colorize: false,
        sync: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,app',
        singleLine: true,
        destination: sink,
      }),
    );
    log.info({ indexed: 268, apiKey: 'sk_live_secret' }, 'index: ready · http://localhost:3000');
    log.debug({ status: 200 }, 'upstream ok');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: index: ready · http:\/\/localhost:3000 \{.*"indexed":268/);
    expect(text).not.toContain('sk_live_secret');
    expect(text).not.toContain('"pid"');
  });
});
