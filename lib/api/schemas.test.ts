import { describe, expect, it } from 'vitest';
import { collectionListEnvelopeSchema } from './envelopes';
import { errorBodySchema } from './errors';
import { sampleCollection } from '@/test/samples';
import { collectionSchema, providerSchema } from './schemas';

describe('collection schema', () => {
  it('accepts the seed shape', () => {
    expect(collectionSchema.safeParse(sampleCollection()).success).toBe(true);
  });

  it('keeps unknown enum values as plain strings', () => {
    const record = sampleCollection({
      type: 'recurring_v2',
      status: 'partially_paid',
      payable: { enabled: true, methods: ['crypto_wallet'], options: [{ any: 'shape' }, 'x', 1] },
      followUp: { enabled: false, startAfter: 5, cadence: 'every_3d', channels: ['carrier_pigeon'], tone: 'stern' },
    });
    const parsed = collectionSchema.parse(record);
    expect(parsed.status).toBe('partially_paid');
    expect(parsed.followUp.channels).toEqual(['carrier_pigeon']);
    expect(parsed.payable.options).toEqual([{ any: 'shape' }, 'x', 1]);
  });

  it('keeps fields it does not know, at every level', () => {
    const record = sampleCollection({
      riskScore: 0.4,
      contact: { ...sampleCollection().contact, loyaltyTier: 'gold' },
    });
    const parsed = collectionSchema.parse(record) as Record<string, unknown> & { contact: Record<string, unknown> };
    expect(parsed.riskScore).toBe(0.4);
    expect(parsed.contact.loyaltyTier).toBe('gold');
  });

  it('accepts a completed collection and arbitrary events', () => {
    const record = sampleCollection({
      status: 'completed',
      completedAt: '2026-11-21T10:00:00.000Z',
      events: [{ type: 'payment.received' }, 'raw'],
    });
    expect(collectionSchema.safeParse(record).success).toBe(true);
  });

  it.each([
    ['a string amount.value', { amount: { value: '150000', currency: 'NGN' } }, 'amount.value'],
    ['a fractional amount.value', { amount: { value: 1.5, currency: 'NGN' } }, 'amount.value'],
    ['a missing contact', { contact: undefined }, 'contact'],
    [
      'methods that are not an array',
      { payable: { enabled: true, methods: 'payment_link', options: [] } },
      'payable.methods',
    ],
    [
      'a line item without quantity',
      { metadata: [{ name: 'x', amount: { value: 1, currency: 'USD' }, description: '' }] },
      'metadata.0.quantity',
    ],
    ['a timestamp that is not ISO 8601', { createdAt: 'yesterday' }, 'createdAt'],
    ['completedAt missing', { completedAt: undefined }, 'completedAt'],
    ['an id without its prefix', { id: 'abc' }, 'id'],
  ])('rejects %s', (_, overrides, path) => {
    const result = collectionSchema.safeParse(sampleCollection(overrides));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join('.')).toBe(path);
  });
});

describe('provider schema', () => {
  const provider = {
    id: 'prv_1',
    name: 'Paystack',
    slug: 'paystack',
    enabled: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
  };

  it('accepts the seed shape and keeps extra fields', () => {
    expect(providerSchema.parse({ ...provider, region: 'eu' })).toMatchObject({ region: 'eu' });
  });

  it('rejects a string enabled flag', () => {
    expect(providerSchema.safeParse({ ...provider, enabled: 'yes' }).success).toBe(false);
  });
});

describe('envelopes', () => {
  it('parses a list page with meta', () => {
    const body = {
      status: 'success',
      message: 'ok',
      data: [sampleCollection()],
      meta: { count: 253, next: 2, prev: null },
    };
    expect(collectionListEnvelopeSchema.parse(body).meta.next).toBe(2);
  });

  it('rejects a list without meta or with an error status', () => {
    expect(collectionListEnvelopeSchema.safeParse({ status: 'success', message: 'ok', data: [] }).success).toBe(false);
    expect(
      collectionListEnvelopeSchema.safeParse({
        status: 'error',
        message: 'x',
        data: [],
        meta: { count: 0, next: null, prev: null },
      }).success,
    ).toBe(false);
  });

  it('types the error envelope with a known code', () => {
    expect(
      errorBodySchema.safeParse({ status: 'error', message: 'Collection not found', code: 'not_found' }).success,
    ).toBe(true);
    expect(errorBodySchema.safeParse({ status: 'error', message: 'x', code: 'teapot' }).success).toBe(false);
  });
});
