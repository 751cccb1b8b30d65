import { z } from 'zod';
import {
  canonicalEmail,
  canonicalEmailText,
  emailMaxLength,
  isValidPassword,
  passwordRules,
} from './rules.ts';

function canonical(fold: (value: string) => string | undefined, message: string) {
  return z
    .string()
    .trim()
    .max(emailMaxLength)
    .transform((value, ctx) => {
      const folded = fold(value);
      if (folded !== undefined) return folded;
      ctx.issues.push({ code: 'custom', input: value, message });
      return z.NEVER;
    });
}

/**
 * An e-mail address in its canonical form (rules.ts `canonicalEmail`): an address Unicode
 * would fold into another (KELVIN SIGN, `ſ`, fullwidth letters…) is refused, never folded.
 */
export const emailSchema = canonical(
  canonicalEmail,
  'an e-mail address such as name@example.com, without look-alike Unicode characters',
);

/** Part of an address (the admin search's prefix), folded by the same rule. */
export const emailTextSchema = canonical(
  canonicalEmailText,
  'part of an e-mail address, without look-alike Unicode characters',
);

/** Login accepts any non-empty password up to the maximum: rules apply when setting one. */
export const loginPasswordSchema = z.string().min(1).max(passwordRules.maxLength);

export const newPasswordSchema = z.string().refine(isValidPassword, 'password format');

