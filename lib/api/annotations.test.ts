import { describe, expect, it } from 'vitest';
import { linkPieces, noteProblem, noteText, tagNameProblem } from './annotations';
import { collectionsHref, parseListState, readListState } from './list-state';

describe('notes and tags as typed', () => {
  it('takes tag names of letters, digits, - and _ up to 40, and names the problem otherwise', () => {
    expect(tagNameProblem('refund-requested')).toBeNull();
    expect(tagNameProblem('VIP_2026')).toBeNull();
    expect(tagNameProblem('')).toBe('name must not be empty');
    expect(tagNameProblem('a'.repeat(41))).toBe('name must be at most 40 characters');
    expect(tagNameProblem('chase by phone')).toBe('name must be letters, digits, - and _ only');
  });

  it('keeps a note’s line breaks, drops other control characters, and refuses empty or over 2,000', () => {
    expect(noteText('  first line\r\nsecond\u0000 line  ')).toBe('first line\nsecond line');
    expect(noteProblem('   ')).toBe('text must not be empty');
    expect(noteProblem('x'.repeat(2_001))).toBe('text must be at most 2,000 characters');
    expect(noteProblem('x'.repeat(2_000))).toBeNull();
  });

  it('makes http and https links of a note, never anything else, the sentence’s full stop left out', () => {
    expect(
      linkPieces('Slip at https://desk.example.com/t/4412. <script>alert(1)</script> javascript:alert(1)'),
    ).toEqual([
      { text: 'Slip at ' },
      { href: 'https://desk.example.com/t/4412', text: 'https://desk.example.com/t/4412' },
      { text: '. <script>alert(1)</script> javascript:alert(1)' },
    ]);
  });

  it('reads tag= given again and again, or comma-separated, as any of them, and writes one a parameter', () => {
    const parsed = parseListState(new URLSearchParams('tag=vip&tag=disputed'));
    expect(parsed).toMatchObject({ ok: true, value: { tag: ['vip', 'disputed'] } });
    expect(readListState(new URLSearchParams('tag=vip,disputed')).tag).toEqual(['vip', 'disputed']);
    expect(parseListState(new URLSearchParams('tag=chase by phone'))).toMatchObject({ ok: false, param: 'tag' });
    expect(collectionsHref({ ...readListState(new URLSearchParams('tag=vip&tag=disputed&status=pending')) })).toBe(
      '/collections?status=pending&tag=vip&tag=disputed',
    );
  });
});
