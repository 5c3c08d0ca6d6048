import { describe, expect, it } from 'vitest';
import { READ_TIMEOUT_CODE, READS_CLOSED_CODE } from '../database/sqlite-reads';
import { WRITER_CLOSED_CODE, WRITER_STOPPED_CODE } from '../database/sqlite-writer';
import { AppError } from '../errors';
import { kept } from './kept';

const failing = (error: unknown) => kept('Saved views', () => Promise.reject(error));
const coded = (code: string) => Object.assign(new Error(code), { code });

describe('what the application keeps, against its database’s faults', () => {
  it('answers what was read', async () => {
    await expect(kept('Saved views', async () => [1, 2])).resolves.toEqual([1, 2]);
  });

  it('says a read past its bound is busy: SQLite’s reads thread ended, PostgreSQL’s statement cancelled', async () => {
    for (const code of [READ_TIMEOUT_CODE, '57014'])
      await expect(failing(coded(code))).rejects.toMatchObject({
        code: 'index_busy',
        message: 'Saved views took too long to read; try again in a moment',
      });
  });

  it('says the database is away: closed under the read, stopped, unreachable, unwritable or damaged', async () => {
    for (const code of [
      READS_CLOSED_CODE,
      WRITER_CLOSED_CODE,
      WRITER_STOPPED_CODE,
      'ECONNREFUSED',
      'SQLITE_FULL',
      'SQLITE_CORRUPT',
    ])
      await expect(failing(coded(code))).rejects.toMatchObject({
        code: 'index_unavailable',
        message: 'Saved views cannot be reached right now: its database is away; try again in a moment',
      });
  });

  it('leaves an answer already made, and anything else, as it was thrown', async () => {
    const made = new AppError('not_found', 'No such view');
    await expect(failing(made)).rejects.toBe(made);
    const bug = new TypeError('x is undefined');
    await expect(failing(bug)).rejects.toBe(bug);
  });
});
