import { describe, expect, it } from 'vitest';
import { blindKeys, sealAad } from './blind';

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
