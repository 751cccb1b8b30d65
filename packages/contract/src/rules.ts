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

// A pragmatic address check (RFC 5321 lengths, one @, a dotted domain, no spaces); the real
// proof of an address is the mail we send to it.
const emailPattern = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;

export function isValidEmail(value: string): boolean {
  return value.length <= emailMaxLength && emailPattern.test(value);
}
