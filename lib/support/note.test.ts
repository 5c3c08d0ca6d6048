import { describe, expect, it } from 'vitest';
import type { Collection } from '@/lib/api/schemas';
import { noteInput, supportNote, utcMinute } from './note';

const fixture: Collection = {
  id: 'pay_7Hk2mQ9xZ',
  type: 'integrated',
  contact: { id: 'cnt_1', firstName: 'Ada', lastName: 'Obi', phone: '+234 801 234 5678', email: 'ada@example.com' },
  reference: 'INV-2026-00042',
  amount: { value: 1250000, currency: 'NGN' },
  status: 'pending',
  expiresIn: 3600,
  payable: {
    enabled: true,
    methods: ['payment_link', 'virtual_account', 'ussd'],
    // The sandbox's shapes, and one the dashboard has never seen.
    options: [
      { method: 'payment_link', url: 'https://pay.example.com/l/abc123', reusable: false },
      { method: 'virtual_account', bankName: 'Wema Bank', accountNumber: '0123456789', expiresAt: null },
      { provider: 'ussd', code: '*737*50*1250000#', steps: ['dial', 'confirm'] },
    ],
  },
  followUp: { enabled: true, startAfter: 30, cadence: 'every_10m', channels: ['whatsapp', 'sms'], tone: 'gentle' },
  metadata: [
    { name: 'Rice (50 kg)', amount: { value: 500000, currency: 'NGN' }, description: 'bag', quantity: 2 },
    { name: 'Delivery', amount: { value: 250000, currency: 'NGN' }, description: '', quantity: 1 },
  ],
  events: [],
  createdAt: '2026-06-30T15:05:09+01:00',
  updatedAt: '2026-07-01T09:00:00.000Z',
  completedAt: null,
};

describe('supportNote', () => {
  it('writes a collection in the fixed format, ready to paste into a ticket', () => {
    expect(
      supportNote(noteInput(fixture), {
        minorUnits: false,
        link: 'https://console.example.com/collections/pay_7Hk2mQ9xZ',
      }),
    ).toBe(
      [
        'Collection INV-2026-00042',
        'Amount: NGN 1,250,000',
        'Status: Pending',
        'Created: 2026-06-30 14:05 UTC',
        'Completed: not completed',
        'Contact: Ada Obi',
        'Payment methods: Payment link, Virtual account, ussd',
        'How to pay:',
        '- Payment link — URL: https://pay.example.com/l/abc123; Reusable: no',
        '- Virtual account — Bank name: Wema Bank; Account number: 0123456789; Expires at: none',
        '- Option 3 — Provider: ussd; Code: *737*50*1250000#; Steps: ["dial","confirm"]',
        'Expires in: 3600',
        'Follow-up: on, Every 10 minutes via WhatsApp, SMS, tone Gentle, starts after 30',
        'Line items:',
        '- Rice (50 kg) × 2: NGN 500,000',
        '- Delivery × 1: NGN 250,000',
        'Dashboard: https://console.example.com/collections/pay_7Hk2mQ9xZ',
      ].join('\n'),
    );
  });

  it('says what is off, absent or completed, and divides by minor units when the dashboard does', () => {
    const note = supportNote(
      noteInput({
        ...fixture,
        status: 'completed',
        completedAt: '2026-07-01T08:59:59.999Z',
        contact: { ...fixture.contact, firstName: '', lastName: '' },
        payable: { enabled: false, methods: [], options: [] },
        followUp: { ...fixture.followUp, enabled: false },
        metadata: [],
      }),
      { minorUnits: true, link: 'https://c.example/collections/pay_7Hk2mQ9xZ' },
    );
    expect(note).toContain('Amount: NGN 12,500.00');
    expect(note).toContain('Status: Completed');
    expect(note).toContain('Completed: 2026-07-01 08:59 UTC');
    expect(note).toContain('Contact: (no name)');
    expect(note).toContain('Payment methods: none (payment switched off)');
    expect(note).toContain('How to pay: no payment details on this collection');
    expect(note).toContain('Follow-up: off');
    expect(note).toContain('Line items: none');
  });

  it('carries no contact details beyond the name and no id but the collection’s own', () => {
    const note = supportNote(noteInput(fixture), {
      minorUnits: false,
      link: 'https://c.example/collections/pay_7Hk2mQ9xZ',
    });
    for (const secret of ['ada@example.com', '801 234', 'cnt_1']) expect(note).not.toContain(secret);
  });
});

describe('utcMinute', () => {
  it('keeps text it cannot read as it is', () => {
    expect(utcMinute('soon')).toBe('soon');
  });
});
