import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blindKeys, nameTokens, sealAad } from './blind';

const keys = blindKeys('x'.repeat(40));
const contact = {
  id: 'contact_1',
  firstName: 'Amara',
  lastName: 'Okafor',
  email: 'amara@example.com',
  phone: '+234 803 123 4567',
};

describe('sealed contacts', () => {
  it('seals each contact under an IV of its own, across many pools of them, and opens only under its own id', () => {
    const sealed = Array.from({ length: 5_000 }, () => keys.seal(contact, sealAad('acct_1', 'pay_1')));
    // The IV is the seal's first 12 bytes: never the same twice, so neither is the seal.
    expect(new Set(sealed.map((s) => Buffer.from(s, 'base64').subarray(0, 12).toString('hex'))).size).toBe(5_000);
    for (const s of [sealed[0]!, sealed[340]!, sealed[341]!, sealed[4_999]!])
      expect(keys.open(s, sealAad('acct_1', 'pay_1'))).toEqual(contact);
    expect(() => keys.open(sealed[0]!, sealAad('acct_1', 'pay_2'))).toThrow();
  });
});

describe('tokens made once', () => {
  // What a token is, made here the long way: HKDF's key for the kind, HMAC-SHA-256, 96 bits.
  const secret = 'y'.repeat(40);
  const kindKeys = new Map<string, Buffer>();
  const byHand = (kind: string, value: string) => {
    let key = kindKeys.get(kind);
    if (!key) {
      const info = Buffer.from(`token:${kind}`);
      key = Buffer.from(hkdfSync('sha256', Buffer.from(secret), Buffer.from('collections-console/index/v1'), info, 32));
      kindKeys.set(kind, key);
    }
    return createHmac('sha256', key).update(value, 'utf8').digest().subarray(0, 12).toString('base64url');
  };

  it('gives every kind the same token the first time and every time after, past the memo emptying', () => {
    const mine = blindKeys(secret);
    // More distinct name words than the memo holds: it empties, and the words met again are made again.
    const words = Array.from({ length: 40_000 }, (_, i) => `word${i}`);
    for (const round of [0, 1])
      for (const word of round ? words.slice(0, 200) : words)
        expect(mine.token('name', word)).toBe(byHand('name', word));
    for (const kind of ['email', 'phone', 'last4', 'name2', 'contact', 'nameprefix'] as const)
      for (let round = 0; round < 2; round++) expect(mine.token(kind, 'v0')).toBe(byHand(kind, 'v0'));
  });

  it('never lends one secret’s tokens to another', () => {
    const other = blindKeys('z'.repeat(40));
    expect(blindKeys(secret).token('name', 'amara')).toBe(byHand('name', 'amara'));
    expect(other.token('name', 'amara')).not.toBe(byHand('name', 'amara'));
    // A value holding a line break (the memo's separator) is a value like any other.
    expect(blindKeys(secret).token('name2', 'a\nb')).toBe(byHand('name2', 'a\nb'));
    // A value missing (an id a record lacks) fails, as the HMAC of nothing did, never a token of 'undefined'.
    expect(() => blindKeys(secret).token('contact', undefined as unknown as string)).toThrow(TypeError);
    expect(() => blindKeys(secret).token('name', undefined as unknown as string)).toThrow(TypeError);
  });

  it('folds a name once: the same words again, in an array no caller can change', () => {
    const first = nameTokens('Ọlábísí  Adé-Ọlá');
    expect(first).toEqual(['olabisi', 'ade', 'ola']);
    expect(nameTokens('Ọlábísí  Adé-Ọlá')).toBe(first);
    expect(() => (first as string[]).push('x')).toThrow(TypeError);
    expect(keys.token('name', 'olabisi')).toBe(keys.token('name', nameTokens('OLABISI')[0]!));
  });
});
