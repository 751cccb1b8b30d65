import type { LoginLimit, LoginLimitFields } from '@keycard/contract/api';
import { errorCodes } from '@keycard/contract/errors';
import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { useState } from 'react';
import { ApiRequestError, isNetworkError } from '../../lib/api.ts';
import { useSecondsLeft } from '../../lib/duration.ts';
import { type AccountDisabledState, flowStorage, loginStateKey, randomState } from '../../lib/storage.ts';
import { loginApi } from './api.ts';

export type LoginError = 'invalid' | 'network' | 'busy' | null;

/** A refused attempt: which limit refused it, and the seconds left until a retry may pass. */
export interface LoginWait {
  limit: LoginLimit;
  seconds: number;
}

/**
 * SPEC §8 login errors, in one table: what each code does. A leaked password and an account's
 * lockout go to the account-disabled page (the lockout with its wait, counted down there); too
 * many attempts from this network stay on the password step, counting down to when a retry
 * may pass (it is not about the account: "locked" would be untrue). `common.busy` (the
 * server's password checking is full, retried already as a 503) stays there too: nothing was
 * checked, so it is neither a wrong password nor a lock.
 */
const disabledCodes = new Set<string>([errorCodes.passwordLeaked]);

/** The limit and wait a `login.too_many_attempts` answer names, if it names them. */
function waitOf(caught: ApiRequestError): { limit: LoginLimit; seconds: number } | null {
  const fields = caught.fields as Partial<LoginLimitFields> | undefined;
  const seconds = Number(fields?.retryAfterSeconds);
  if ((fields?.limit === 'address' || fields?.limit === 'account') && seconds > 0)
    return { limit: fields.limit, seconds };
  return null;
}

export function usePasswordLogin() {
  const navigate = useNavigate();
  const [error, setError] = useState<LoginError>(null);
  const [pending, setPending] = useState(false);
  const [limited, setLimited] = useState<{ limit: LoginLimit; until: number } | null>(null);
  const seconds = useSecondsLeft(limited?.until ?? 0);
  const wait: LoginWait | null = limited && seconds > 0 ? { limit: limited.limit, seconds } : null;
  /** A wait ran out on this screen: the attempt may be made again. */
  const ready = limited !== null && seconds === 0;

  async function login(email: string, password: string): Promise<void> {
    setPending(true);
    setError(null);
    setLimited(null);
    const state = randomState();
    flowStorage.set(loginStateKey, state);
    try {
      const answer = await loginApi.login(email, password, state);
      // applyMfa: the portal's own login applies the tenant's MFA policy (SPEC §4 route table);
      // an MFA-reset request (purpose, mfaResetRedirectUri) travels on to /authenticate.
      const query = new URLSearchParams({ code: answer.code, state: answer.state, applyMfa: 'true' });
      const asked = new URLSearchParams(window.location.search);
      for (const key of ['purpose', 'mfaResetRedirectUri'])
        if (asked.get(key)) query.set(key, asked.get(key)!);
      navigate(`${paths.authenticate}?${query}`, { replace: true });
    } catch (caught) {
      setPending(false);
      const refused = caught instanceof ApiRequestError && caught.code === errorCodes.tooManyAttempts;
      const waited = refused ? waitOf(caught) : null;
      if (waited?.limit === 'account') {
        const state: AccountDisabledState = { lockedUntil: Date.now() + waited.seconds * 1000, email };
        navigate(paths.accountDisabled, { state });
      } else if (waited) {
        setLimited({ limit: waited.limit, until: Date.now() + waited.seconds * 1000 });
      } else if (refused || (caught instanceof ApiRequestError && disabledCodes.has(caught.code))) {
        navigate(paths.accountDisabled);
      } else if (caught instanceof ApiRequestError && caught.code === errorCodes.busy) {
        setError('busy');
      } else if (isNetworkError(caught)) {
        setError('network');
      } else {
        setError('invalid');
      }
    }
  }

  return { login, error, pending, wait, ready };
}
