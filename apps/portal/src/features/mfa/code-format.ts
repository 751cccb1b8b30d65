/** SPEC §5: one-time codes are exactly 6 digits. */
const codeLength = 6;

/**
 * A typed or pasted one-time code reduced to its digits: "123 456" and "123-456" (as SMS and
 * authenticator apps show them) become "123456"; anything after the sixth digit is dropped.
 */
export function codeDigits(value: string): string {
  return value.replace(/\D/g, '').slice(0, codeLength);
}

export function isCompleteCode(value: string): boolean {
  return value.length === codeLength && /^\d+$/.test(value);
}

/**
 * A recovery code in the form the server accepts (`k7m2p-9qxw4`), whatever case, spaces or
 * dashes it was typed or pasted with — the server compares it the same way
 * (apps/server/src/mfa/mfa-crypto.ts `normaliseRecoveryCode`). Null when it cannot be one.
 */
export function canonicalRecoveryCode(value: string): string | null {
  const plain = value.toLowerCase().replace(/[^0-9a-z]/g, '');
  return /^[0-9a-z]{10}$/.test(plain) ? `${plain.slice(0, 5)}-${plain.slice(5)}` : null;
}

/** What the person entered, in the form the server takes; null when it cannot be a valid entry. */
export function enteredProof(mode: 'code' | 'recovery', value: string): string | null {
  if (mode === 'recovery') return canonicalRecoveryCode(value);
  const digits = codeDigits(value);
  return isCompleteCode(digits) ? digits : null;
}
