import { currencyDigits } from './money';

/**
 * An amount as a person types it into "Minimum amount" / "Maximum amount" (issue 36): grouping separators
 * (`1,000,000`, `1 000 000`, `1'000'000`), a currency symbol or code (`₦500,000`, `NGN 500000`), and, when
 * the dashboard shows amounts in major units (AMOUNT_MINOR_UNITS=true), a decimal fraction (`5,000.50`).
 * Read into the API's integer (`amount.value`): the page corrects the URL to it; the API stays strict.
 */
export type AmountReading = { ok: true; value: number } | { ok: false; message: string };

/** Letters of a code and symbols of a currency (Unicode Sc), spaces of every width, ', _ and commas. */
const CODE = /^[A-Za-z]{3}\s*|\s*[A-Za-z]{3}$/g;
const SYMBOLS = /\p{Sc}/gu;
const GROUPING = /[\s\u00a0\u202f',_]/g;

export function readAmountInput(
  text: string,
  options: { name: string; minorUnits: boolean; currencies?: readonly string[] },
): AmountReading {
  const plain = text.trim().replace(CODE, '').replace(SYMBOLS, '').replace(GROUPING, '');
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plain);
  if (!match) return { ok: false, message: `${options.name} must be an amount, like 500,000` };
  const [, sign, whole, fraction] = match;
  let value: number;
  if (fraction === undefined) {
    value = Number(whole) * (options.minorUnits ? 10 ** digitsOf(options.currencies) : 1);
  } else {
    if (!options.minorUnits)
      return { ok: false, message: `${options.name} must be a whole amount: the API's amounts have no fraction` };
    if (!options.currencies || options.currencies.length !== 1)
      return { ok: false, message: `${options.name} with a fraction needs one currency chosen (to know its cents)` };
    const d = currencyDigits(options.currencies[0]!);
    if (fraction.length > d)
      return { ok: false, message: `${options.name} has more decimals than ${options.currencies[0]} has (${d})` };
    value = Number(whole) * 10 ** d + Number(fraction.padEnd(d, '0'));
  }
  if (!Number.isSafeInteger(value)) return { ok: false, message: `${options.name} is too large` };
  return { ok: true, value: sign ? -value : value };
}

/** A whole amount typed in major units is multiplied by the currency's factor: one currency, else as given. */
const digitsOf = (currencies?: readonly string[]) =>
  currencies && currencies.length === 1 ? currencyDigits(currencies[0]!) : 0;
