import { z } from 'zod';
import {
  canonicalEmail,
  canonicalEmailText,
  emailMaxLength,
  isValidPassword,
  nativeClientProblem,
  passwordRules,
  redirectTargetProblem,
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

/**
 * A redirect target: a client's redirect or post-logout URI, a tenant's default redirect
 * (rules.ts `redirectTargetProblem`). Matched exactly, so absolute, without fragment; https,
 * http on localhost, or a native app's reverse-DNS scheme; never javascript:, data: and the like.
 * The server refuses http on `localhost` names in production on top (http/redirects.ts).
 */
export const redirectUriSchema = z
  .string()
  .max(2048)
  .check((ctx) => {
    const problem = redirectTargetProblem(ctx.value, { production: false });
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
  });

/**
 * A client's redirect and post-logout URIs suit one application type: with an app scheme it is
 * a native client (rules.ts `nativeClientProblem`). For the client object's `.check`.
 */
export function checkClientRedirects(ctx: {
  value: { redirectUris: string[]; postLogoutRedirectUris: string[] };
  issues: unknown[];
}): void {
  const problem = nativeClientProblem([...ctx.value.redirectUris, ...ctx.value.postLogoutRedirectUris]);
  if (problem)
    ctx.issues.push({ code: 'custom', input: ctx.value, path: ['redirectUris'], message: problem });
}
