import { z } from 'zod';
import { emailMaxLength, isValidEmail, isValidPassword, passwordRules } from './rules.ts';

export const emailSchema = z
  .string()
  .trim()
  .max(emailMaxLength)
  .refine(isValidEmail, 'invalid e-mail')
  .transform((value) => value.toLowerCase());

/** Login accepts any non-empty password up to the maximum: rules apply when setting one. */
export const loginPasswordSchema = z.string().min(1).max(passwordRules.maxLength);

export const newPasswordSchema = z.string().refine(isValidPassword, 'password format');
