import type { PhoneDeliveryType } from '@keycard/contract';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';

export type PhoneCheck =
  | { ok: true; e164: string; international: string }
  | { ok: false; problem: 'country_code' | 'invalid' | 'not_mobile' };

const callingCodes = new Set<string>(getCountries().map((country) => getCountryCallingCode(country)));

// Numbers that cost the caller money or reach no person: never text or call them (toll fraud
// and SMS pumping ride on premium and shared-cost ranges).
const refusedTypes = new Set(['PREMIUM_RATE', 'SHARED_COST', 'TOLL_FREE', 'UAN', 'VOICEMAIL', 'PAGER']);
// Types that can receive an SMS; a valid number of unknown type is given the benefit of the doubt.
const textableTypes = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE', 'PERSONAL_NUMBER', 'VOIP', undefined]);

/**
 * SPEC §5: the country code must be valid, then the number (libphonenumber's metadata for the
 * country, 'max' so the number type is known). A number typed with its own '+' prefix wins
 * over the country-code field. SMS needs a number that takes text messages; a voice number
 * must be reached directly, so an extension (a switchboard) is refused.
 */
export function checkPhoneNumber(
  countryCode: string,
  phoneNumber: string,
  channel: PhoneDeliveryType,
): PhoneCheck {
  const number = phoneNumber.trim();
  const international = number.startsWith('+') || number.startsWith('00');
  const code = countryCode.trim().replace(/^(\+|00)/, '');
  if (!international && !(/^\d{1,3}$/.test(code) && callingCodes.has(code))) {
    return { ok: false, problem: 'country_code' };
  }
  if (!/^[\d\s()./+-]+(?:\s*(?:ext\.?|x|#)\s*\d+)?$/i.test(number)) return { ok: false, problem: 'invalid' };
  const parsed = international
    ? parsePhoneNumberFromString(number.replace(/^00/, '+'))
    : parsePhoneNumberFromString(number, { defaultCallingCode: code });
  if (!parsed?.isValid()) return { ok: false, problem: 'invalid' };
  const type = parsed.getType();
  if (type && refusedTypes.has(type)) return { ok: false, problem: 'invalid' };
  if (channel === 'voice' && parsed.ext) return { ok: false, problem: 'invalid' };
  if (channel === 'sms' && (parsed.ext || !textableTypes.has(type)))
    return { ok: false, problem: 'not_mobile' };
  return { ok: true, e164: parsed.number, international: parsed.formatInternational() };
}

/** The number as the user may see it again: the country code and the last two digits. */
export function maskPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return '••••';
  const national = String(parsed.nationalNumber);
  return `+${parsed.countryCallingCode} ${'•'.repeat(Math.max(0, national.length - 2))}${national.slice(-2)}`;
}
