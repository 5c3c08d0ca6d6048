import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * A contact's e-mail and phone masked (contract section 7a, `VIEWER_CONTACT_DETAILS=masked`): short and of
 * one width, keeping what tells two people apart. The e-mail keeps its first character and its domain
 * (`g•••@example.com`), the phone its country code and last four digits (`+234 ••• ••• 9683`); the bullets
 * are fixed, so a long local part never pushes the phone out of a narrow cell.
 */
const HIDDEN = '•••';

export function maskEmail(email: string): string {
  if (!email) return '';
  const at = email.lastIndexOf('@');
  if (at < 1) return `${email[0]}${HIDDEN}`;
  return `${email[0]}${HIDDEN}${email.slice(at)}`;
}

export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (!digits) return '';
  const parsed = parsePhoneNumberFromString(phone);
  if (parsed) return `+${parsed.countryCallingCode} ${HIDDEN} ${HIDDEN} ${parsed.nationalNumber.slice(-4)}`;
  // No country to be read: the last four digits only.
  return `${HIDDEN} ${HIDDEN} ${digits.slice(-4)}`;
}
