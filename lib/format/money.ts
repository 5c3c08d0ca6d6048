import type { Amount } from '@/lib/api/schemas';

/**
 * Amounts (contract section 1): the integer with its currency code and digit
 * grouping. By default the value is shown as given; with minor units on, it is
 * divided by the currency's factor first (JPY 0 digits, USD 2, KWD 3, …).
 */
const formatters = new Map<string, Intl.NumberFormat | null>();

function formatter(currency: string, minorUnits: boolean): Intl.NumberFormat | null {
  const key = `${currency}|${minorUnits}`;
  if (!formatters.has(key)) {
    try {
      const fractions = minorUnits ? currencyDigits(currency) : 0;
      formatters.set(
        key,
        new Intl.NumberFormat('en', {
          style: 'currency',
          currency,
          currencyDisplay: 'code',
          minimumFractionDigits: fractions,
          maximumFractionDigits: fractions,
        }),
      );
    } catch {
      formatters.set(key, null); // not an ISO 4217 code: fall back to plain grouping
    }
  }
  return formatters.get(key)!;
}

const digits = new Map<string, number>();

/** The currency's number of minor-unit digits per ISO 4217 (via Intl); 2 when unknown. Memoised: a page formats hundreds of amounts. */
export function currencyDigits(currency: string): number {
  let d = digits.get(currency);
  if (d === undefined) {
    try {
      d = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      d = 2;
    }
    digits.set(currency, d);
  }
  return d;
}

const PLAIN = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const PLAIN_MINOR = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

export function formatAmount(amount: Amount, options: { minorUnits?: boolean } = {}): string {
  const minorUnits = Boolean(options.minorUnits);
  const value = minorUnits ? amount.value / 10 ** currencyDigits(amount.currency) : amount.value;
  const f = formatter(amount.currency, minorUnits);
  // Intl puts a no-break space after the code; a plain space copies and reads better.
  if (f) return f.format(value).replace(/\u00a0/g, ' ');
  return `${amount.currency} ${(minorUnits ? PLAIN_MINOR : PLAIN).format(value)}`;
}

/** Totals of line items (quantity × amount), one per currency, in first-seen order. */
export function lineItemTotals(items: { amount: Amount; quantity: number }[]): Amount[] {
  const totals = new Map<string, number>();
  for (const item of items)
    totals.set(item.amount.currency, (totals.get(item.amount.currency) ?? 0) + item.amount.value * item.quantity);
  return [...totals].map(([currency, value]) => ({ currency, value }));
}
