import { describe, expect, it } from 'vitest';
import { extractFindings, MAX_PASTE_BYTES, pasteBytes, type Finding } from './extract';

const find = (text: string) => extractFindings(text).findings;
const values = (text: string) => find(text).map((f) => `${f.kind}:${f.value}`);

describe('extractFindings', () => {
  it('reads a realistic ticket thread: ids, a link, an e-mail, a phone and a reference, in order, once each', () => {
    const ticket = [
      'From: Ada Obi <ada.obi@Example.com>',
      'Sent: Monday, 23 November 2026 14:05',
      'Subject: RE: Payment not showing (ticket #48213)',
      '',
      'Hi team,',
      'the customer paid INV-2026-00042 yesterday but it still shows pending:',
      'https://console.example.com/collections/pay_7Hk2mQ9xZ?from=list.',
      'Also check pay_Q1w2E3r4 and the provider prv_acme_01, please.',
      'You can reach her on +234 801 234 5678 or ada.obi@example.com.',
      '> On 22 Nov 2026, at 09:12, Support wrote:',
      '> Could you send pay_7Hk2mQ9xZ again?',
    ].join('\r\n');
    expect(values(ticket)).toEqual([
      'email:ada.obi@example.com',
      'reference:INV-2026-00042',
      'collection:pay_7Hk2mQ9xZ',
      'collection:pay_Q1w2E3r4',
      'provider:prv_acme_01',
      'phone:+234 801 234 5678',
    ]);
  });

  it('takes ids out of dashboard links, relative paths and encoded query strings', () => {
    expect(values('see http://localhost:3000/providers/prv_9 and /collections/pay_abc-DEF_1/')).toEqual([
      'provider:prv_9',
      'collection:pay_abc-DEF_1',
    ]);
    expect(values('<https://x.example/collections/pay_inbrackets>')).toEqual(['collection:pay_inbrackets']);
  });

  it('ends an id at punctuation and quotes, never mid-word', () => {
    expect(values('("pay_one"), pay_two; pay_three. \'prv_four\'')).toEqual([
      'collection:pay_one',
      'collection:pay_two',
      'collection:pay_three',
      'provider:prv_four',
    ]);
  });

  it('reads an id whose prefix a ticket wrote in capitals, as the search box does (the rest keeps its case)', () => {
    expect(
      values(
        'Ticket: PAY_vzd5E3Qs7hAXEzldEFQJSc, Prv_acme_01, https://x.example/collections/Pay_L1nk and PAY_ABC123DEF',
      ),
    ).toEqual([
      'collection:pay_vzd5E3Qs7hAXEzldEFQJSc',
      'provider:prv_acme_01',
      'collection:pay_L1nk',
      'collection:pay_ABC123DEF',
    ]);
    // The same id in two cases is one finding.
    expect(values('pay_Q1w2E3r4 and PAY_Q1w2E3r4')).toEqual(['collection:pay_Q1w2E3r4']);
  });

  it('ignores look-alikes that are not ids', () => {
    expect(find('prepay_abc repay_x XPAY_UPPER pay_ prv_ pay-abc xprv_1 pay_é')).toEqual([]);
    expect(find(`pay_${'a'.repeat(129)}`)).toEqual([]);
  });

  it('keeps an id split by a line break as two halves out (a wrapped line is not guessed at)', () => {
    expect(values('pay_abc\ndef')).toEqual(['collection:pay_abc']);
  });

  it('finds e-mails in any case once, including mailto: links and angle brackets', () => {
    expect(values('mailto:Kemi@Shop.co.uk, <kemi@shop.co.uk>; KEMI@SHOP.CO.UK')).toEqual(['email:kemi@shop.co.uk']);
    expect(find('user@localhost and @handle and a@b')).toEqual([]);
  });

  it('finds phones as people write them, and the same phone once', () => {
    expect(values('call 0801-234-5678, (0801) 234 5678 or +1 (415) 555-0134; also 0044 20 7946 0958')).toEqual([
      'phone:0801-234-5678',
      'phone:+1 (415) 555-0134',
      'phone:0044 20 7946 0958',
    ]);
  });

  it('does not take dates, times, amounts, card-length numbers or short numbers for phones', () => {
    expect(
      find(
        'on 2026-11-23 at 14:05, 23.11.2026, 11/23/2026, NGN 12,500.00, 1 250 000 000, 4111 1111 1111 1111 1111, 12345',
      ),
    ).toEqual([]);
  });

  it('finds reference-like tokens and labelled references, not standards', () => {
    expect(
      values('Order ORD-AB12CD34 and INV2026001; Reference: abc-7781; order #55012; UTF-8, ISO-8601, SHA-256'),
    ).toEqual(['reference:ORD-AB12CD34', 'reference:INV2026001', 'reference:abc-7781', 'reference:55012']);
    expect(find('ASAP FYI OK-THANKS NO-REPLY')).toEqual([]);
  });

  it('does not read a reference as a phone', () => {
    expect(values('INV-2026-0004212345')).toEqual(['reference:INV-2026-0004212345']);
  });

  it('reads a spreadsheet column (tabs and CRLF)', () => {
    expect(values('id\temail\r\npay_a1\tx@y.io\r\npay_b2\tz@y.io\r\n')).toEqual([
      'collection:pay_a1',
      'email:x@y.io',
      'collection:pay_b2',
      'email:z@y.io',
    ]);
  });

  it('caps the list and says how many there were', () => {
    const text = Array.from({ length: 620 }, (_, i) => `pay_${i}`).join(' ');
    const { findings, total } = extractFindings(text);
    expect(findings).toHaveLength(500);
    expect(total).toBe(620);
    expect(findings[499]).toEqual<Finding>({ kind: 'collection', value: 'pay_499' });
  });

  it('finds nothing in nothing', () => {
    expect(extractFindings('')).toEqual({ findings: [], total: 0 });
    expect(find('Thanks, all sorted now!')).toEqual([]);
  });
});

describe('pasteBytes', () => {
  it('counts UTF-8 bytes, so the 1 MB limit is the same for any script', () => {
    expect(pasteBytes('abc')).toBe(3);
    expect(pasteBytes('é')).toBe(2);
    expect(pasteBytes('€'.repeat(350_000)) > MAX_PASTE_BYTES).toBe(true);
  });
});
