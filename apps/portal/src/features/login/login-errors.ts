import type { LoginFailureFields, LoginLimit, LoginLimitFields } from '@keycard/contract/api';
import { errorCodes } from '@keycard/contract/errors';
import { paths } from '@keycard/contract/paths';
import { ApiRequestError, type ErrorTable, lookupError } from '../../lib/api.ts';
import type { AccountDisabledState } from '../../lib/storage.ts';

/** What the password step shows in its notice. */
export type LoginError = 'invalid' | 'network' | 'busy';

/** What a refused password step does. */
export type LoginFailure =
  /** attemptsLeft: a wrong password near the lockout, the failures left before it. */
  | { kind: 'notice'; error: LoginError; attemptsLeft?: number }
  /** A limit refused it: the step counts down to when a retry may pass. */
  | { kind: 'limited'; limit: LoginLimit; until: number }
  | { kind: 'leave'; to: string; state?: AccountDisabledState };

/** The text of each notice (literal keys: the translator checks them). */
export const loginErrorTexts = {
  invalid: 'login.errors.invalidCredentials',
  network: 'common.networkError',
  busy: 'login.errors.busy',
} as const satisfies Record<LoginError, string>;

type LoginErrorRow = LoginError | 'limit' | 'disabled';

/**
 * SPEC §8 login errors, the flow's one table. A leaked password goes to the account-disabled
 * page; too many attempts is read with the limit it names (`limitFailure`). `common.busy`
 * (the server's password checking is full, retried already as a 503) stays on the step:
 * nothing was checked, so it is neither a wrong password nor a lock. Anything else says the
 * e-mail or password is wrong (the answer never tells which).
 */
export const loginErrors: ErrorTable<LoginErrorRow> = {
  network: 'network',
  codes: {
    [errorCodes.tooManyAttempts]: 'limit',
    [errorCodes.passwordLeaked]: 'disabled',
    [errorCodes.busy]: 'busy',
  },
  otherwise: 'invalid',
};

/**
 * Too many attempts: an account's lockout goes to the account-disabled page with its wait
 * (counted down there); too many attempts from this network stay on the password step,
 * counting down (it is not about the account: "locked" would be untrue). Without a wait it
 * names, the account-disabled page says it without one.
 */
function limitFailure(caught: unknown, email: string, now: number): LoginFailure {
  const fields = (caught instanceof ApiRequestError ? caught.fields : undefined) as
    | Partial<LoginLimitFields>
    | undefined;
  const seconds = Number(fields?.retryAfterSeconds);
  const limit = fields?.limit;
  if ((limit !== 'address' && limit !== 'account') || !(seconds > 0)) {
    return { kind: 'leave', to: paths.accountDisabled };
  }
  const until = now + seconds * 1000;
  if (limit === 'account')
    return { kind: 'leave', to: paths.accountDisabled, state: { lockedUntil: until, email } };
  return { kind: 'limited', limit, until };
}

export function loginFailure(caught: unknown, email: string, now: number): LoginFailure {
  const row = lookupError(loginErrors, caught);
  if (row === 'limit') return limitFailure(caught, email, now);
  if (row === 'disabled') return { kind: 'leave', to: paths.accountDisabled };
  if (row === 'invalid' && caught instanceof ApiRequestError) {
    // Read by hand (the contract's schema would bring zod into the entry chunk).
    const left = Number((caught.fields as Partial<LoginFailureFields> | undefined)?.attemptsLeft);
    if (Number.isInteger(left) && left > 0) return { kind: 'notice', error: row, attemptsLeft: left };
  }
  return { kind: 'notice', error: row };
}
