/**
 * Fault injection, on only with SANDBOX_FAULTS=1. A fault is chosen by the
 * request itself (a reserved id, or a reserved page number for the list), never
 * by a global switch, so tests running in parallel cannot disturb each other.
 *
 *   GET /public/collections/pay_fault_500     GET /public/providers/prv_fault_500
 *   GET /public/collections?page=<FAULT_PAGES['500']>
 */
export const FAULT_KINDS = [
  'slow', // answers correctly after SANDBOX_SLOW_MS (default 15 s): past any sane timeout
  '500', // 500 with the error envelope
  '503', // 503, a transient failure the dashboard retries
  'malformed', // 200 whose body is not JSON
  'badshape', // 200 with a record that breaks the schema (amount.value is a string)
  'unknown', // 200 with unknown enum values and extra fields: valid, must render
  '401', // the key is rejected
  '429', // rate limited, Retry-After: 7
  '400', // upstream rejects the request
  'reset', // the connection is destroyed before any answer
  'empty', // list: an account with no collections; ids: a bare record (no line items, events or options)
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** `pay_fault_flaky-<token>`: 503 for the first two requests with that token, then the record. */
export const FLAKY_PREFIX = 'flaky-';

export const RETRY_AFTER_SECONDS = 7;

/** Page numbers that trigger a fault on the list; far past any seeded data. */
export const FAULT_PAGES = Object.fromEntries(FAULT_KINDS.map((kind, i) => [kind, 99_000_001 + i])) as Record<
  FaultKind,
  number
>;

export function faultId(prefix: 'pay' | 'prv', kind: FaultKind | `${typeof FLAKY_PREFIX}${string}`): string {
  return `${prefix}_fault_${kind}`;
}

export type Fault = { kind: FaultKind } | { kind: 'flaky'; token: string };

export function faultForId(id: string): Fault | null {
  const match = /^(?:pay|prv)_fault_(.+)$/.exec(id);
  if (!match) return null;
  const name = match[1]!;
  if (name.startsWith(FLAKY_PREFIX) && name.length > FLAKY_PREFIX.length) return { kind: 'flaky', token: id };
  return (FAULT_KINDS as readonly string[]).includes(name) ? { kind: name as FaultKind } : null;
}

export function faultForPage(page: number): Fault | null {
  const kind = FAULT_KINDS.find((k) => FAULT_PAGES[k] === page);
  return kind ? { kind } : null;
}

/** Remembers how often each flaky token was asked for; bounded so it cannot grow without end. */
export function createFlakyCounter(failures = 2, capacity = 10_000) {
  const seen = new Map<string, number>();
  return (token: string): boolean => {
    const count = (seen.get(token) ?? 0) + 1;
    seen.delete(token);
    seen.set(token, count);
    if (seen.size > capacity) seen.delete(seen.keys().next().value!);
    return count <= failures;
  };
}

/** A record with values the seed never names and fields it does not define. */
export function unknownValuesCollection(id: string) {
  return {
    id,
    type: 'recurring_v2',
    contact: {
      id: 'contact_unknownfields',
      firstName: 'Ünïcode',
      lastName: 'Tester',
      phone: '+44 7700 900123',
      email: 'unicode.tester@example.com',
      loyaltyTier: 'gold',
    },
    reference: 'FAULT-UNKNOWN-1',
    amount: { value: 1250075, currency: 'XOF', precision: 0 },
    status: 'partially_paid',
    expiresIn: 2880,
    payable: {
      enabled: true,
      methods: ['payment_link', 'crypto_wallet'],
      options: [
        { method: 'crypto_wallet', network: 'lightning', nested: { depth: 2, tags: ['a', 'b'] } },
        'plain-string-option',
        42,
      ],
    },
    followUp: {
      enabled: true,
      startAfter: 90,
      cadence: 'every_3d',
      channels: ['whatsapp', 'carrier_pigeon'],
      tone: 'stern',
      quietHours: { from: '22:00', to: '07:00' },
    },
    metadata: [
      {
        name: 'Mystery box',
        amount: { value: 1250075, currency: 'XOF' },
        description: 'Contents vary',
        quantity: 1,
        sku: 'MB-1',
      },
    ],
    events: [
      { type: 'reminder.sent', channel: 'carrier_pigeon', createdAt: '2026-11-02T09:00:00.000Z' },
      { note: 'an event without a type or time', weight: 3 },
    ],
    createdAt: '2026-11-01T08:30:00.000Z',
    updatedAt: '2026-11-02T09:00:00.000Z',
    completedAt: null,
    riskScore: 0.42,
    labels: ['vip', 'manual-review'],
  };
}

export function unknownValuesProvider(id: string) {
  return {
    id,
    name: 'Quantum Pay ✨',
    slug: 'quantum-pay',
    enabled: true,
    createdAt: '2026-10-01T00:00:00.000Z',
    updatedAt: '2026-10-05T12:00:00.000Z',
    region: 'eu-west',
    capabilities: ['refunds'],
  };
}

export function badShapeCollection(id: string) {
  return { ...unknownValuesCollection(id), amount: { value: '12500.75', currency: 'USD' } };
}

/** A record with every list empty and follow-up off: the empty states of a detail page. */
export function bareCollection(id: string) {
  const base = unknownValuesCollection(id);
  return {
    id,
    type: 'integrated',
    contact: {
      id: 'contact_bare',
      firstName: 'Bare',
      lastName: 'Record',
      phone: '+15550100',
      email: 'bare@example.com',
    },
    reference: 'BARE-1',
    amount: { value: 5000, currency: 'USD' },
    status: 'pending',
    expiresIn: 1440,
    payable: { enabled: false, methods: [], options: [] },
    followUp: { enabled: false, startAfter: 0, cadence: 'every_10m', channels: [], tone: 'gentle' },
    metadata: [],
    events: [],
    createdAt: base.createdAt,
    updatedAt: base.createdAt,
    completedAt: null,
  };
}

export function bareProvider(id: string) {
  return {
    id,
    name: 'Dormant Provider',
    slug: 'dormant',
    enabled: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}
