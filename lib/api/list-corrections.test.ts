import { describe, expect, it } from 'vitest';
import { correctionMessage, decodeCorrections, encodeCorrections, listCorrections } from './list-corrections';

const said = (query: string) => listCorrections(new URLSearchParams(query)).map(correctionMessage);

describe('what a corrected list URL says', () => {
  it('names a dropped value and why, and what is shown instead', () => {
    expect(said('amountMin=lots')).toEqual(['amountMin “lots” is not an amount; left out']);
    expect(said('sort=bogus')).toEqual(['sort “bogus” is not a sort; newest first shown']);
    expect(said('createdFrom=2026-13-45')).toEqual([
      'createdFrom “2026-13-45” is not a date that exists (YYYY-MM-DD); left out',
    ]);
    expect(said('page=abc&limit=7')).toEqual([
      'page “abc” is not a page number; page 1 shown',
      'limit “7” is not a page size; 10 per page shown',
    ]);
  });

  it('names a value read another way, a repeat, and a range turned round', () => {
    expect(said('amountMin=1,000')).toEqual(['amountMin “1,000” read as “1000”']);
    expect(said('status=pending&status=completed')).toEqual([
      'status was given more than once; the first, “pending”, is used',
    ]);
    expect(said('amountMin=500&amountMax=100')).toEqual(['amountMin was after amountMax; the two are swapped']);
  });

  it('says nothing of a URL already as the list reads it, or of spaces around a value', () => {
    expect(said('status=pending&sort=-amount&page=2')).toEqual([]);
    expect(said('status=%20pending%20')).toEqual([]);
  });

  it('quotes a long value cut, so a pasted paragraph stays one line', () => {
    const [message] = said(`sort=${'x'.repeat(500)}`);
    expect(message).toBe(`sort “${'x'.repeat(60)}…” is not a sort; newest first shown`);
  });

  it('carries the corrections through a cookie, and reads a forged one as none', () => {
    const corrections = listCorrections(new URLSearchParams('amountMin=lots&sort=bogus'));
    expect(decodeCorrections(encodeCorrections(corrections))).toEqual(corrections);
    expect(encodeCorrections(corrections).length).toBeLessThan(1500);
    expect(decodeCorrections('%7B')).toEqual([]);
    expect(decodeCorrections(encodeURIComponent(JSON.stringify([{ param: 1 }, { kind: 'read' }])))).toEqual([]);
    expect(decodeCorrections(undefined)).toEqual([]);
  });

  it('keeps a cookie small however much the URL held', () => {
    const query = new URLSearchParams();
    for (const name of ['status', 'currency', 'createdFrom', 'createdTo', 'amountMin', 'amountMax', 'sort', 'q'])
      query.set(name, `\u0001${'y'.repeat(900)}`);
    const text = encodeCorrections(listCorrections(query));
    expect(text.length).toBeLessThanOrEqual(1500);
    expect(decodeCorrections(text)).toHaveLength(8);
  });
});
