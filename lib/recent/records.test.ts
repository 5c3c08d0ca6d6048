import { describe, expect, it } from 'vitest';
import {
  EMPTY,
  MAX_RECENT,
  parseRecords,
  recordsKey,
  STORAGE_KEY,
  serialiseRecords,
  togglePin,
  visited,
  type RecordEntry,
  type Records,
} from './records';

const at = (i: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, i)).toISOString();
const collection = (n: number, extra: Partial<RecordEntry> = {}): RecordEntry => ({
  kind: 'collection',
  id: `pay_${n}`,
  label: `INV-${n}`,
  detail: 'pending · NGN 500',
  at: at(n % 60),
  ...extra,
});

describe('recently viewed', () => {
  it('puts the latest first, once, and keeps the last 20', () => {
    let records: Records = EMPTY;
    for (let n = 0; n < 25; n++) records = visited(records, collection(n));
    records = visited(records, collection(10));
    expect(records.recent).toHaveLength(MAX_RECENT);
    expect(records.recent.map((r) => r.id).slice(0, 3)).toEqual(['pay_10', 'pay_24', 'pay_23']);
    expect(records.recent.filter((r) => r.id === 'pay_10')).toHaveLength(1);
    expect(records.recent.at(-1)!.id).toBe('pay_5');
  });

  it('keeps a pin’s label fresh when the record is opened again, and its pinning time', () => {
    const pinned = togglePin(EMPTY, collection(1, { detail: 'pending · NGN 500' }));
    const after = visited(pinned, collection(1, { detail: 'completed · NGN 500', at: at(59) }));
    expect(after.pinned).toEqual([collection(1, { detail: 'completed · NGN 500' })]);
  });
});

describe('pins', () => {
  it('pins newest first and unpins', () => {
    let records = togglePin(EMPTY, collection(1));
    records = togglePin(records, { kind: 'provider', id: 'prv_a', label: 'Acme', detail: 'enabled', at: at(2) });
    expect(records.pinned.map((p) => p.id)).toEqual(['prv_a', 'pay_1']);
    expect(togglePin(records, collection(1)).pinned.map((p) => p.id)).toEqual(['prv_a']);
  });
});

describe('parseRecords', () => {
  it('reads back what it wrote', () => {
    const records = togglePin(visited(EMPTY, collection(1)), collection(2));
    expect(parseRecords(serialiseRecords(records))).toEqual(records);
  });

  it.each([
    ['nothing', null],
    ['not JSON', '{oops'],
    ['JSON null', 'null'],
    ['an array', '[1,2]'],
    ['another version', JSON.stringify({ version: 2, recent: [collection(1)], pinned: [] })],
    ['no version', JSON.stringify({ recent: [collection(1)] })],
    ['lists that are not lists', JSON.stringify({ version: 1, recent: 'pay_1', pinned: { a: 1 } })],
  ])('is empty for %s', (_, raw) => {
    expect(parseRecords(raw)).toEqual(EMPTY);
  });

  it('drops entries it cannot trust and keeps the rest', () => {
    const raw = JSON.stringify({
      version: 1,
      recent: [
        collection(1),
        { ...collection(2), kind: 'invoice' },
        { ...collection(3), id: '../../etc/passwd' },
        { ...collection(4), id: 'prv_4' }, // a provider id filed as a collection
        { ...collection(5), at: 'yesterday' },
        collection(1), // twice
        { ...collection(6), label: 42, detail: 'x'.repeat(500) },
        'pay_7',
        null,
      ],
      pinned: [collection(8)],
    });
    const records = parseRecords(raw);
    expect(records.recent.map((r) => r.id)).toEqual(['pay_1', 'pay_6']);
    expect(records.recent[1]!.label).toBe('pay_6');
    expect(records.recent[1]!.detail).toHaveLength(200);
    expect(records.pinned.map((r) => r.id)).toEqual(['pay_8']);
  });
});

describe('recordsKey', () => {
  it('keeps each account’s records apart, and one account’s where they always were', () => {
    expect(recordsKey('?account=acme')).toBe(`${STORAGE_KEY}:acme`);
    expect(recordsKey('?status=paid&account=acme-test')).toBe(`${STORAGE_KEY}:acme-test`);
    expect(recordsKey('?status=paid')).toBe(STORAGE_KEY);
    // A search of every account is no account's: the default list.
    expect(recordsKey('?q=ada&account=all')).toBe(STORAGE_KEY);
  });
});
