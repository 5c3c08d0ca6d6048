import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * A contact's e-mail and phone as the index shows them (contract section 7a): enough to tell two
 * people apart, not enough to reach them. The e-mail keeps its first character and its domain, the
 * phone its country code and last four digits; every other character is a `•`.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return email ? `${email[0]}${'•'.repeat(Math.max(0, email.length - 1))}` : '';
  return `${email[0]}${'•'.repeat(at - 1)}${email.slice(at)}`;
}

export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (!digits) return '';
  const parsed = parsePhoneNumberFromString(phone);
  if (parsed) {
    const national = parsed.nationalNumber;
    return `+${parsed.countryCallingCode} ${'•'.repeat(Math.max(0, national.length - 4))}${national.slice(-4)}`;
  }
  // No country to be read: the last four digits only.
  return `${'•'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}
