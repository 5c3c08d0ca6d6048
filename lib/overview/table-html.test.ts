import { describe, expect, it } from 'vitest';
import { escapeHtml, tableRowsHtml } from './table-html';

describe('tableRowsHtml', () => {
  it('writes a row per point and a cell per series, zero where a series has no value', () => {
    const html = tableRowsHtml(
      [
        { date: '2026-01-01', values: { pending: 3, completed: 1 } },
        { date: '2026-01-02', values: { completed: 2 } },
      ],
      ['pending', 'completed'],
      (d) => `day ${d}`,
      (n) => `#${n}`,
    );
    expect(html).toBe(
      '<tr><th scope="row">day 2026-01-01</th><td>#3</td><td>#1</td></tr>' +
        '<tr><th scope="row">day 2026-01-02</th><td>#0</td><td>#2</td></tr>',
    );
  });

  it('escapes every label and value, so nothing the upstream sends becomes markup', () => {
    const html = tableRowsHtml(
      [{ date: '<script>alert(1)</script>', values: { a: 1 } }],
      ['a'],
      (d) => d,
      () => `"x" & 'y' <b>`,
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;x&quot; &amp; &#39;y&#39; &lt;b&gt;');
  });

  it('has no rows for no points', () => {
    expect(tableRowsHtml([], ['a'], String, String)).toBe('');
  });
});

describe('escapeHtml', () => {
  it('leaves ordinary text alone', () => {
    expect(escapeHtml('NGN 1,234.50 · 30 Jun 2025')).toBe('NGN 1,234.50 · 30 Jun 2025');
  });
});
