import { describe, expect, it } from 'vitest';
import { collectionSchema } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { toRow, toRowPage } from './rows';

describe('table rows', () => {
  it('keep exactly what the table shows', () => {
    const row = toRow(collectionSchema.parse(sampleCollection()));
    expect(row).toEqual({
      id: 'pay_abc123',
      reference: 'INV-1',
      // The contact's id: a search result's name links the contact's page.
      contact: {
        firstName: 'Zoë',
        lastName: 'Okafor',
        email: 'zoe@example.com',
        phone: '+234 801 234 5678',
        id: 'contact_1',
      },
      amount: { value: 150000, currency: 'NGN' },
      status: 'pending',
      payable: { methods: ['payment_link', 'virtual_account'] },
      followUp: { enabled: true, channels: ['whatsapp', 'sms'] },
      createdAt: '2026-11-20T16:45:12.345Z',
      // The columns a user may show (lib/api/columns.ts).
      updatedAt: '2026-11-20T16:45:12.345Z',
      completedAt: null,
      lineItems: 1,
      type: 'integrated',
    });
  });

  it('carry unknown enum values verbatim and drop fields the table does not show', () => {
    const record = collectionSchema.parse(
      sampleCollection({
        status: 'partially_paid',
        riskScore: 0.4,
        payable: { enabled: true, methods: ['crypto_wallet'], options: [{ iban: 'x' }] },
      }),
    );
    const row = toRow(record);
    expect(row.status).toBe('partially_paid');
    expect(row.payable).toEqual({ methods: ['crypto_wallet'] });
    expect(row).not.toHaveProperty('riskScore');
  });

  it('keep the page counts of the list envelope', () => {
    const page = toRowPage({
      status: 'success',
      message: 'ok',
      data: [collectionSchema.parse(sampleCollection())],
      meta: { count: 253, next: 2, prev: null, cursor: 'x' },
    });
    expect(page.meta).toEqual({ count: 253, next: 2, prev: null });
    expect(page.data).toHaveLength(1);
  });
});
