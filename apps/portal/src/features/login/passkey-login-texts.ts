// Apart from login-errors.ts (the password step's table, in its chunk): the e-mail step, in the
// login route, shows these.

/** What the e-mail step says when a passkey sign-in fails. */
export type PasskeyLoginError =
  | 'cancelled'
  | 'failed'
  | 'expired'
  | 'unsupported'
  | 'rateLimited'
  | 'removed'
  | 'network';

/** The text of each (literal keys: the translator checks them). */
export const passkeyLoginErrorTexts = {
  cancelled: 'login.passkey.errors.cancelled',
  failed: 'login.passkey.errors.failed',
  expired: 'login.passkey.errors.expired',
  unsupported: 'login.passkey.errors.unsupported',
  rateLimited: 'login.passkey.errors.rateLimited',
  removed: 'login.passkey.errors.removed',
  network: 'common.networkError',
} as const satisfies Record<PasskeyLoginError, string>;
