import { describe, expect, it } from 'vitest';
import {
  columnsCookie,
  columnsFromCookie,
  COLUMNS_COOKIE,
  DEFAULT_COLUMNS,
  moveColumn,
  readColumns,
  toggleColumn,
} from './columns';

describe('the list columns', () => {
  it('reads a stored list in its order, keeps each column once and says what it dropped', () => {
    expect(readColumns(['amount', 'reference', 'riskScore', 'amount', 'status'])).toEqual({
      columns: ['amount', 'reference', 'status'],
      dropped: ['riskScore', 'amount'],
    });
    expect(readColumns('id,created')).toEqual({ columns: ['id', 'created'], dropped: [] });
  });

  it.each([[[]], [''], ['nothing,known'], [42], [{ columns: ['id'] }], ['x'.repeat(401)], [Array(51).fill('id')]])(
    'has nothing to show for %j',
    (stored) => expect(readColumns(stored)).toBeNull(),
  );

  it('remembers a choice in a cookie and forgets it when the defaults come back', () => {
    const chosen = ['status', 'reference', 'email'] as const;
    const cookie = columnsCookie(chosen);
    expect(cookie).toMatch(
      new RegExp(`^${COLUMNS_COOKIE}=status%2Creference%2Cemail; Path=/; Max-Age=\\d+; SameSite=Lax$`),
    );
    expect(columnsFromCookie(cookie.split(';')[0]!.split('=')[1])).toEqual(chosen);
    expect(columnsCookie(DEFAULT_COLUMNS)).toContain('Max-Age=0');
  });

  it.each([undefined, '', '%E0%A4%A', 'status,<script>', 'id,id', ',,,'])(
    'ignores a tampered or unreadable cookie (%j): the defaults',
    (raw) => expect(columnsFromCookie(raw)).toEqual(DEFAULT_COLUMNS),
  );

  it('moves a column up and down, never past either end', () => {
    const cols = ['reference', 'amount', 'status'] as const;
    expect(moveColumn(cols, 'amount', -1)).toEqual(['amount', 'reference', 'status']);
    expect(moveColumn(cols, 'amount', 1)).toEqual(['reference', 'status', 'amount']);
    expect(moveColumn(cols, 'reference', -1)).toEqual(cols);
    expect(moveColumn(cols, 'status', 1)).toEqual(cols);
  });

  it('shows a column at its place among those shown, and never hides the last one', () => {
    expect(toggleColumn(['reference', 'amount', 'id'], 'email')).toEqual(['reference', 'email', 'amount', 'id']);
    expect(toggleColumn(['reference', 'amount'], 'id')).toEqual(['reference', 'amount', 'id']);
    expect(toggleColumn(['reference', 'amount'], 'amount')).toEqual(['reference']);
    expect(toggleColumn(['reference'], 'reference')).toEqual(['reference']);
  });
});
