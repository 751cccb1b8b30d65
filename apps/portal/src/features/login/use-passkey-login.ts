import type { PasskeyMode } from '@keycard/contract/passkeys';
import { useNavigate } from '@keycard/web/router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBranding } from '../../lib/branding.tsx';
import { passkeyModeOf } from '../../lib/passkey-mode.ts';
import { isWebAuthnAvailable } from '../../lib/webauthn.ts';
import type { PasskeyLoginError } from './passkey-login-texts.ts';
import type { PasskeyOutcome } from './passkey-sign-in.ts';

/** The sign-in's work, a chunk of its own (with the WebAuthn code it loads in turn). */
const work = () => import('./passkey-sign-in.ts');

/** The tenant's passkey setting; null while it is not known. */
function usePasskeyMode(): PasskeyMode | null {
  const branding = useBranding();
  const [mode, setMode] = useState<PasskeyMode | null>(branding?.passkeys ?? null);
  useEffect(() => {
    let cancelled = false;
    void passkeyModeOf(branding).then((known) => {
      if (!cancelled) setMode(known);
    });
    return () => {
      cancelled = true;
    };
  }, [branding]);
  return mode;
}

/**
 * Signing in with a passkey on the e-mail step (docs/passkeys.md), where the tenant offers it
 * and the browser has WebAuthn: the e-mail field's autofill offers the passkeys (conditional
 * UI, started when the step opens, cancelled when it closes — going on to the password), and
 * the button asks for one at once. Either way the server answers the same single-use code as
 * a password, and the sign-in goes on to /authenticate as after one (passkey-sign-in.ts).
 * The password step has the button only (`autofill: false`): a passkey instead of the password,
 * also when an app asks for a fresh sign-in (prompt=login, max_age).
 */
export function usePasskeyLogin({ autofill: withAutofill = true }: { autofill?: boolean } = {}) {
  const navigate = useNavigate();
  const mode = usePasskeyMode();
  const offered = mode !== null && mode !== 'off' && isWebAuthnAvailable();
  const [error, setError] = useState<PasskeyLoginError | null>(null);
  const [pending, setPending] = useState(false);
  const autofill = useRef<AbortController | null>(null);
  const open = useRef(true);

  const settle = useCallback(
    (outcome: PasskeyOutcome | null) => {
      if (!outcome || !open.current) return;
      if ('to' in outcome) {
        navigate(outcome.to, { replace: true });
        return;
      }
      setPending(false);
      setError(outcome.error);
    },
    [navigate],
  );

  // The autofill request, for as long as the step is open.
  useEffect(() => {
    open.current = true;
    if (!offered || !withAutofill) return;
    const controller = new AbortController();
    autofill.current = controller;
    work()
      .then((run) =>
        run.signInByAutofill(controller.signal, () => {
          setPending(true);
          setError(null);
        }),
      )
      .then(settle, () => undefined);
    return () => {
      open.current = false;
      controller.abort();
    };
  }, [offered, withAutofill, settle]);

  /** The button: cancels the autofill request and asks the browser for a passkey now. */
  const signIn = useCallback(() => {
    autofill.current?.abort();
    setPending(true);
    setError(null);
    work()
      .then((run) => run.signInNow())
      .catch((): PasskeyOutcome => ({ error: 'network' }))
      .then(settle);
  }, [settle]);

  return { mode, offered, error, pending, signIn };
}
