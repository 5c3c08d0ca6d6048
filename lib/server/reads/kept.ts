import 'server-only';
import { closedUnder, isStatementTimeout, storeFault } from '../database/connect';
import { AppError } from '../errors';

/**
 * What the application keeps (saved views, the drift report) read or written against its database's faults:
 * a read past the reads' bound (connect.ts `READ_STATEMENT_TIMEOUT_MS`) a 503 `index_busy`; a connection closed
 * under it (a reopen), a database that does not answer, a file that cannot be written, a 503
 * `index_unavailable`; each saying what is away. Not a 502 `upstream_error`, which would blame the upstream.
 * Anything else, an `AppError` first, as it was thrown.
 */
export async function kept<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isStatementTimeout(error))
      throw new AppError('index_busy', `${what} took too long to read; try again in a moment`);
    if (closedUnder(error) || storeFault(error) !== null)
      throw new AppError(
        'index_unavailable',
        `${what} cannot be reached right now: its database is away; try again in a moment`,
      );
    throw error;
  }
}
