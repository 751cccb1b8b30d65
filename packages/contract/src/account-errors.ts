/**
 * Error codes of the account page's API (docs/account.md). The union ErrorCode (errors.ts)
 * includes them; their statuses and messages are in account-error-messages.ts.
 */
export const accountErrors = {
  /** A sensitive change needs a sign-in within the last five minutes: prove it again. */
  recentSignInRequired: 'account.recent_sign_in_required',
  /** The current password given to change it (or to prove a recent sign-in) is wrong. */
  currentPasswordInvalid: 'account.current_password_invalid',
  /** No such session, app, trusted browser or factor on the signed-in account. */
  notFound: 'account.not_found',
  /** Removing this would leave the account without the factor its tenant requires. */
  factorRequired: 'account.factor_required',
} as const;
export type AccountErrorCode = (typeof accountErrors)[keyof typeof accountErrors];
