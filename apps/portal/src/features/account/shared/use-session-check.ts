import { useEffect, useState } from 'react';
import { accountApi } from './api.ts';

/**
 * Whether this browser is signed in (GET /api/session). Activation and reset links ask a
 * signed-in person to log out first; a failed check lets the page go on (the server decides).
 */
export function useSessionCheck(): 'checking' | 'none' | 'exists' {
  const [state, setState] = useState<'checking' | 'none' | 'exists'>('checking');
  useEffect(() => {
    let cancelled = false;
    accountApi
      .session()
      .then((session) => !cancelled && setState(session.exists ? 'exists' : 'none'))
      .catch(() => !cancelled && setState('none'));
    return () => {
      cancelled = true;
    };
  }, []);
  return state;
}
