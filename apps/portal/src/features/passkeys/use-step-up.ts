import { useEffect, useState } from 'react';
import { getPasskey } from '../../lib/webauthn.ts';
import { passkeysApi } from './api.ts';
import { type PasskeyProblem, passkeyProblem } from './passkey-errors.ts';

/**
 * The passkey step-up (docs/passkeys.md): the app asked for a phishing-resistant sign-in
 * (acr_values phr or phrh) that this session has not made. One of the account's passkeys on
 * this domain confirms it (the verify ceremony), and the caller authorizes again; a password
 * never can. "Back to <app>" ends the request as the login page's button does.
 */
export function useStepUp(iid: string, onConfirmed: () => void) {
  const [appName, setAppName] = useState<string | null>(null);
  const [problem, setProblem] = useState<PasskeyProblem | null>(null);
  const [pending, setPending] = useState(false);
  const [leaving, setLeaving] = useState(false);
  /** The account has no passkey for this domain: nothing can confirm it here (known on arrival). */
  const [none, setNone] = useState(false);

  useEffect(() => {
    let cancelled = false;
    passkeysApi
      .interaction(iid)
      .then((answer) => {
        if (!cancelled) setAppName(answer.clientName);
      })
      .catch(() => undefined);
    passkeysApi
      .list()
      .then(({ passkeys }) => {
        if (!cancelled && !passkeys.some((passkey) => passkey.usableHere)) setNone(true);
      })
      // Not known: the button stays, and the server says so if there is none.
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [iid]);

  async function confirm(): Promise<void> {
    if (pending) return;
    setPending(true);
    setProblem(null);
    try {
      const { options } = await passkeysApi.verifyOptions();
      await passkeysApi.verify(await getPasskey(options));
    } catch (caught) {
      const failed = passkeyProblem(caught);
      if (failed === 'notFound') setNone(true);
      else setProblem(failed);
      setPending(false);
      return;
    }
    onConfirmed();
  }

  async function back(): Promise<void> {
    setLeaving(true);
    try {
      const { location } = await passkeysApi.abort(iid);
      // The provider's resume address, on this origin; nothing else is followed.
      if (new URL(location, window.location.href).origin !== window.location.origin) throw new Error();
      window.location.assign(location);
    } catch {
      setLeaving(false);
      setProblem('unknown');
    }
  }

  return { appName, none, problem, pending, leaving, confirm, back };
}
