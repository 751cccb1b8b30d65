import type { LoginLimit } from '@keycard/contract/api';
import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { useState } from 'react';
import { useSecondsLeft } from '../../lib/duration.ts';
import { passwordSignIn } from '../../lib/passkey-offer.ts';
import { flowStorage, loginStateKey, randomState } from '../../lib/storage.ts';
import { type LoginError, loginFailure } from './login-errors.ts';
import { passwordApi } from './password-api.ts';

export type { LoginError } from './login-errors.ts';

/** A refused attempt: which limit refused it, and the seconds left until a retry may pass. */
export interface LoginWait {
  limit: LoginLimit;
  seconds: number;
}

/**
 * The password step's state and action: sends the password, goes on to /authenticate with
 * the code, or handles the refusal by its code (login-errors.ts).
 */
export function usePasswordLogin() {
  const navigate = useNavigate();
  const [error, setError] = useState<LoginError | null>(null);
  /** Failures left before the lockout, when the server warned of it. */
  const [attemptsLeft, setAttemptsLeft] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  const [limited, setLimited] = useState<{ limit: LoginLimit; until: number } | null>(null);
  const seconds = useSecondsLeft(limited?.until ?? 0);
  const wait: LoginWait | null = limited && seconds > 0 ? { limit: limited.limit, seconds } : null;
  /** A wait ran out on this screen: the attempt may be made again. */
  const ready = limited !== null && seconds === 0;

  async function login(email: string, password: string): Promise<void> {
    setPending(true);
    setError(null);
    setAttemptsLeft(null);
    setLimited(null);
    const state = randomState();
    flowStorage.set(loginStateKey, state);
    let answer: Awaited<ReturnType<typeof passwordApi.login>>;
    try {
      answer = await passwordApi.login(email, password, state);
    } catch (caught) {
      setPending(false);
      const failure = loginFailure(caught, email, Date.now());
      if (failure.kind === 'leave')
        navigate(failure.to, failure.state ? { state: failure.state } : undefined);
      else if (failure.kind === 'limited') setLimited({ limit: failure.limit, until: failure.until });
      else {
        setError(failure.error);
        setAttemptsLeft(failure.attemptsLeft ?? null);
      }
      return;
    }
    // The hand-off may offer a passkey after this sign-in (features/passkeys).
    passwordSignIn.mark();
    // applyMfa: the portal's own login applies the tenant's MFA policy (SPEC §4 route table);
    // an MFA-reset request (purpose, mfaResetRedirectUri) travels on to /authenticate.
    const query = new URLSearchParams({ code: answer.code, state: answer.state, applyMfa: 'true' });
    const asked = new URLSearchParams(window.location.search);
    for (const key of ['purpose', 'mfaResetRedirectUri']) {
      const value = asked.get(key);
      if (value) query.set(key, value);
    }
    navigate(`${paths.authenticate}?${query}`, { replace: true });
  }

  return { login, error, attemptsLeft, pending, wait, ready };
}
