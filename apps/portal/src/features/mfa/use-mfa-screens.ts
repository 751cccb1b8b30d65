import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { mfaApi } from './api.ts';
import { wantsReset } from './flow.ts';
import { describeMfaError } from './mfa-errors.ts';

export type MfaView = 'choose' | 'totp' | 'phone' | 'mobile' | 'mobileReplace' | 'verify' | 'manage';

/**
 * Where setting up starts: the partner app's registration screen (with the other factors as
 * alternate options) when the tenant lists it first, else the choice of methods.
 */
export function setUpView(status: MfaStatusResponse): MfaView {
  return status.methods[0] === 'smmobile' ? 'mobile' : 'choose';
}

/**
 * The first MFA screen for the signed-in user's state. A recommended registration opens where a
 * required one does (issue 19 item 12): the same choice, with its skip while MFA is optional.
 */
export function firstView(status: MfaStatusResponse): MfaView {
  switch (status.state) {
    case 'MFA_VERIFICATION_REQUIRED':
      return 'verify';
    case 'AUTHENTICATED':
      return status.factor ? 'manage' : setUpView(status);
    default:
      return setUpView(status);
  }
}

/**
 * /mfa: reads the MFA status once and picks the first screen. An expired password goes to its
 * page; a verification asked for while resetting (purpose=for-mfa-reset) goes to the reset,
 * whose own proof passes MFA as well; a session gone starts again, anything else is the
 * unknown-error page.
 */
export function useMfaScreens() {
  const navigate = useNavigate();
  const [status, setStatus] = useState<MfaStatusResponse | null>(null);
  const [view, setView] = useState<MfaView>('choose');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mfaApi
      .status()
      .then((answer) => {
        if (answer.state === 'PASSWORD_EXPIRED') return navigate(paths.passwordExpired, { replace: true });
        if (answer.state === 'MFA_VERIFICATION_REQUIRED' && wantsReset()) {
          return navigate(paths.mfaReset, { replace: true });
        }
        setView(firstView(answer));
        setStatus(answer);
      })
      .catch((caught: unknown) =>
        navigate(describeMfaError(caught).signedOut ? paths.root : paths.error, { replace: true }),
      );
  }, [navigate]);

  return { status, view, setView };
}
