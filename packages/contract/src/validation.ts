import { z } from 'zod';
import { canonicalEmail, emailMaxLength, isValidPassword, passwordRules } from './rules.ts';

/** An e-mail address in its canonical form (rules.ts `canonicalEmail`); look-alikes are refused. */
export const emailSchema = z
  .string()
  .trim()
  .max(emailMaxLength)
  .transform((value, ctx) => {
    const email = canonicalEmail(value);
    if (email !== undefined) return email;
    ctx.issues.push({ code: 'custom', input: value, message: 'invalid e-mail' });
    return z.NEVER;
  });

/** Login accepts any non-empty password up to the maximum: rules apply when setting one. */
export const loginPasswordSchema = z.string().min(1).max(passwordRules.maxLength);

export const newPasswordSchema = z.string().refine(isValidPassword, 'password format');
