import { describe, expect, it } from 'vitest';
import { maskEmail, maskPhone } from './mask';

describe('masked contact details', () => {
  it('keep an e-mail’s first character and domain behind a fixed mask', () => {
    expect(maskEmail('amara.okafor12@example.com')).toBe('a•••@example.com');
    expect(maskEmail('g@example.com')).toBe('g•••@example.com');
    expect(maskEmail('')).toBe('');
    expect(maskEmail('not-an-email')).toBe('n•••');
  });

  it('keep a phone’s country code and last four digits, however it was written', () => {
    expect(maskPhone('+234 803 123 9683')).toBe('+234 ••• ••• 9683');
    expect(maskPhone('+2348031239683')).toBe('+234 ••• ••• 9683');
    expect(maskPhone('+254 712 345 678')).toBe('+254 ••• ••• 5678');
    expect(maskPhone('+1 (415) 555-0132')).toBe('+1 ••• ••• 0132');
  });

  it('keep only the last four digits when no country can be read', () => {
    expect(maskPhone('0803 123 4567')).toBe('••• ••• 4567');
    expect(maskPhone('')).toBe('');
  });

  it('are as wide for a long address as for a short one', () => {
    expect(maskEmail('abdulahi.oluwaseun.adeyemi@example.com').length).toBe(maskEmail('ab@example.com').length);
  });
});
