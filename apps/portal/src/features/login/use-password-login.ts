import { errorCodes } from '@keycard/contract/errors';
import { paths } from '@keycard/contract/paths';
import { useState } from 'react';
import { ApiRequestError, isNetworkError } from '../../lib/api.ts';
import { useNavigate } from '../../lib/router.tsx';
import { flowStorage, loginStateKey, randomState } from '../../lib/storage.ts';
import { loginApi } from './api.ts';

export type LoginError = 'invalid' | 'network' | null;

/** SPEC §8 login errors, in one table: what each code does. */
const disabledCodes = new Set<string>([errorCodes.tooManyAttempts, errorCodes.passwordLeaked]);

export function usePasswordLogin() {
  const navigate = useNavigate();
  const [error, setError] = useState<LoginError>(null);
  const [pending, setPending] = useState(false);

  async function login(email: string, password: string): Promise<void> {
    setPending(true);
    setError(null);
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
      if (caught instanceof ApiRequestError && disabledCodes.has(caught.code)) {
        navigate(paths.accountDisabled);
      } else if (isNetworkError(caught)) {
        setError('network');
      } else {
        setError('invalid');
      }
    }
  }

  return { login, error, pending };
}
