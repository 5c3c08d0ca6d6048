import { describe, expect, it } from 'vitest';
import { sampleCollection } from '@/test/samples';
import { driftOf } from './drift';

describe('schema drift', () => {
  it('finds nothing in a record that uses only what the seed names, a status with a meaning, an ISO currency', () => {
    for (const status of ['pending', 'completed', 'on_hold', 'expired', 'failed'])
      expect(driftOf('collection', sampleCollection({ status, type: 'integrated' })), status).toEqual([]);
    for (const currency of ['NGN', 'KES', 'USD', 'JPY'])
      expect(driftOf('collection', sampleCollection({ amount: { value: 1, currency } })), currency).toEqual([]);
  });

  it('reports a currency code ISO 4217 does not know, and a status nobody named', () => {
    expect(
      driftOf('collection', sampleCollection({ amount: { value: 1, currency: 'XYZ' }, status: 'disputed' })),
    ).toEqual([
      { kind: 'value', path: 'collection.status', value: 'disputed' },
      { kind: 'value', path: 'collection.amount.currency', value: 'XYZ' },
    ]);
  });

  it('reports unknown fields at every level and values the seed does not name, once each per record', () => {
    const base = sampleCollection({});
    const record = {
      ...base,
      status: 'reversed',
      type: 'standalone',
      riskScore: 0.4,
      contact: { ...(base.contact as object), company: 'Acme' },
      payable: { enabled: true, methods: ['payment_link', 'crypto_wallet'], options: [] },
      followUp: { ...(base.followUp as object), channels: ['sms', 'email'], cadence: 'hourly', tone: 'gentle' },
      metadata: [{ name: 'x', description: '', quantity: 1, amount: { value: 1, currency: 'NGN', fx: 1 }, sku: 'A1' }],
    };
    const drift = driftOf('collection', record);
    expect(drift).toEqual(
      expect.arrayContaining([
        { kind: 'field', path: 'collection.riskScore' },
        { kind: 'field', path: 'collection.contact.company' },
        { kind: 'field', path: 'collection.metadata[].sku' },
        { kind: 'field', path: 'collection.metadata[].amount.fx' },
        { kind: 'value', path: 'collection.status', value: 'reversed' },
        { kind: 'value', path: 'collection.type', value: 'standalone' },
        { kind: 'value', path: 'collection.payable.methods', value: 'crypto_wallet' },
        { kind: 'value', path: 'collection.followUp.channels', value: 'email' },
        { kind: 'value', path: 'collection.followUp.cadence', value: 'hourly' },
      ]),
    );
    expect(drift.some((d) => d.value === 'payment_link' || d.value === 'sms' || d.value === 'gentle')).toBe(false);
  });

  it('reads providers, and never throws on a shape it does not expect', () => {
    expect(
      driftOf('provider', {
        id: 'prv_1',
        name: 'a',
        slug: 'a',
        enabled: true,
        createdAt: '',
        updatedAt: '',
        region: 'eu',
      }),
    ).toEqual([{ kind: 'field', path: 'provider.region' }]);
    for (const odd of [null, 42, 'x', [], { metadata: 'no', payable: [], followUp: null }])
      expect(() => driftOf('collection', odd)).not.toThrow();
  });
});
