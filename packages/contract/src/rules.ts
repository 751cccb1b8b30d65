/** SPEC §5 / §9 limits. */
export const passwordRules = { minLength: 8, maxLength: 2048, history: 4 } as const;
export const emailMaxLength = 254;

export function isValidPassword(password: string): boolean {
  return (
    password.length >= passwordRules.minLength &&
    password.length <= passwordRules.maxLength &&
    /\d/.test(password) &&
    /\p{Ll}/u.test(password) &&
    /\p{Lu}/u.test(password)
  );
}

// A pragmatic address check (RFC 5321 lengths, one @, a dotted domain): the local part takes
// RFC 5322 dot-atom characters, a domain label letters, digits and dashes, both any Unicode
// letter or digit. No quoted local parts and none of `,;<>"()[]\:` or spaces, which a mailer
// would read as a second recipient. The real proof of an address is the mail we send to it.
const emailPattern =
  /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~.-]{1,64}@[\p{L}\p{M}\p{N}-]+(\.[\p{L}\p{M}\p{N}-]+)+$/u;
const printableAscii = /^[\x21-\x7e]*$/;
// Controls, format characters (zero-width joiners, bidi marks), unassigned and private-use code
// points: invisible, or with case and normalisation rules a later Unicode version may give them.
const otherCharacter = /\p{C}/u;

/** True when Unicode lower-casing and case folding leave the character alone. */
function isStableCharacter(character: string): boolean {
  return character.toLowerCase() === character && character.toUpperCase().toLowerCase() === character;
}

/**
 * The one canonical form of an e-mail address, used by every path that takes one (sign-in,
 * invitation, registration, partners, the admin API, `keycard apply`, the CLI): trimmed, with
 * ASCII A–Z lower-cased and nothing else changed. An address that Unicode would fold or
 * normalise into another one is refused (undefined), never folded: U+212A KELVIN SIGN
 * lower-cases to ASCII `k`, U+017F `ſ` upper-cases to `S`, `İ` lower-cases to two characters,
 * fullwidth letters and ligatures normalise (NFKC) to ASCII, and a combining accent composes
 * with its letter, so each would otherwise name someone else's account.
 */
export function canonicalEmail(value: string): string | undefined {
  const email = canonicalEmailText(value);
  return email !== undefined && email.length <= emailMaxLength && emailPattern.test(email)
    ? email
    : undefined;
}

/**
 * The character rule of `canonicalEmail` without the address's shape, for what is part of an
 * address (the admin search's prefix): the same folding, so a prefix finds what it names.
 */
export function canonicalEmailText(value: string): string | undefined {
  const text = value.trim().replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  if (printableAscii.test(text)) return text;
  if (otherCharacter.test(text) || text.normalize('NFKC') !== text) return undefined;
  return Array.from(text).every(isStableCharacter) ? text : undefined;
}

/** An address as typed (without surrounding spaces) that has a canonical form. */
export function isValidEmail(value: string): boolean {
  return value === value.trim() && canonicalEmail(value) !== undefined;
}

// The redirect rules live apart (redirect-rules.ts) so the e-mail check does not bring them along.
export {
  clientApplicationType,
  isPrivateUseRedirect,
  nativeClientProblem,
  redirectTargetProblem,
} from './redirect-rules.ts';
