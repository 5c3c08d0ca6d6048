/** A collection in the seed's shape, for unit tests; override any field. */
export function sampleCollection(overrides: Record<string, unknown> = {}) {
  return {
    id: 'pay_abc123',
    type: 'integrated',
    contact: {
      id: 'contact_1',
      firstName: 'Zoë',
      lastName: 'Okafor',
      phone: '+234 801 234 5678',
      email: 'zoe@example.com',
    },
    reference: 'INV-1',
    amount: { value: 150000, currency: 'NGN' },
    status: 'pending',
    expiresIn: 1440,
    payable: { enabled: true, methods: ['payment_link', 'virtual_account'], options: [] },
    followUp: { enabled: true, startAfter: 60, cadence: 'every_10m', channels: ['whatsapp', 'sms'], tone: 'gentle' },
    metadata: [{ name: 'Rent', amount: { value: 150000, currency: 'NGN' }, description: 'November', quantity: 1 }],
    events: [],
    createdAt: '2026-11-20T16:45:12.345Z',
    updatedAt: '2026-11-20T16:45:12.345Z',
    completedAt: null,
    ...overrides,
  };
}
