import type { AccountFactor } from '@keycard/contract/account';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';
import { getPasskey, PasskeyCeremonyError } from '../../lib/webauthn.ts';
import { reproofRefusal } from './account-page-errors.ts';
import { accountPageApi } from './api.ts';

/** How the second step is proven: a code of the app, a code sent to the phone, or a recovery code. */
export type ReproofFactor = 'totp' | 'phone' | 'recovery';

export interface ReproofState {
  open: boolean;
  step: 'password' | 'factor';
  factor: ReproofFactor;
  /** The masked phone a code was sent to. */
  codeSentTo: string | null;
  pending: boolean;
  /** The text on the step's field (a wrong password or code). */
  fieldError: string | undefined;
  /** A refusal that belongs to no field. */
  notice: string | undefined;
}

const closed: ReproofState = {
  open: false,
  step: 'password',
  factor: 'totp',
  codeSentTo: null,
  pending: false,
  fieldError: undefined,
  notice: undefined,
};

/** The enrolled factor as "confirm it's you" needs it: its kind and how its codes come. */
export type ReproofFactorOf = Pick<AccountFactor, 'kind' | 'deliveryType'>;

/**
 * "Confirm it's you" (docs/account.md): a sensitive change needs a sign-in of the last five
 * minutes, by passkey, or by password and then the factor when one is enrolled. The account
 * page's hook opens it when the API answers account.recent_sign_in_required, and runs the
 * change again once it is confirmed; the expired-password page opens it at the factor (its
 * password was typed a moment ago).
 */
export function useReproof({
  factor,
  passkeyUsable,
  onConfirmed,
  onCancelled,
  onSignedOut,
}: {
  factor: ReproofFactorOf | null;
  /** The account has a passkey usable on this domain, and the browser can use it. */
  passkeyUsable: boolean;
  onConfirmed: () => Promise<void>;
  onCancelled: () => void;
  onSignedOut: () => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<ReproofState>(closed);

  function firstFactor(enrolled = factor): ReproofFactor {
    if (enrolled?.kind === 'authenticator-app') return 'totp';
    if (enrolled?.kind === 'phone') return 'phone';
    // The mobile app's number approval runs on the MFA screens; here a recovery code stands in.
    return 'recovery';
  }

  async function attempt(call: () => Promise<'done' | 'factor' | 'stay'>) {
    setState((now) => ({ ...now, pending: true, fieldError: undefined, notice: undefined }));
    try {
      const outcome = await call();
      if (outcome === 'done') {
        setState(closed);
        await onConfirmed();
      } else if (outcome === 'factor') {
        setState((now) => ({ ...now, step: 'factor', factor: firstFactor(), pending: false }));
      } else {
        setState((now) => ({ ...now, pending: false }));
      }
    } catch (caught) {
      const row = reproofRefusal(caught);
      if (row.kind === 'signedOut') {
        setState(closed);
        onSignedOut();
        return;
      }
      setState((now) => ({
        ...now,
        pending: false,
        fieldError: row.kind === 'field' ? t(row.key) : undefined,
        notice: row.kind === 'notice' || row.kind === 'gone' ? t(row.key) : undefined,
      }));
    }
  }

  return {
    ...state,
    passkeyUsable,
    /** The enrolled factor's delivery, for the phone's resend choice. */
    factorDelivery: factor?.deliveryType ?? null,
    /** Opens it, at the password (the account page) or at the factor (a password just typed). */
    start: (step: ReproofState['step'] = 'password', enrolled = factor) =>
      setState({ ...closed, open: true, step, factor: firstFactor(enrolled) }),
    cancel: () => {
      setState(closed);
      onCancelled();
    },
    withPasskey: () =>
      attempt(async () => {
        const { options } = await accountPageApi.passkeyVerifyOptions();
        try {
          await accountPageApi.verifyPasskey(await getPasskey(options));
        } catch (caught) {
          if (!(caught instanceof PasskeyCeremonyError)) throw caught;
          // The person closed the browser's dialog: they may use the password instead.
          return 'stay';
        }
        return 'done';
      }),
    withPassword: (password: string) =>
      attempt(async () => {
        const answer = await accountPageApi.reauthenticate(password);
        return answer.factorRequired && !answer.recentSignIn.recent ? 'factor' : 'done';
      }),
    sendCode: () =>
      attempt(async () => {
        const delivery = factor?.deliveryType === 'voice' ? 'voice' : 'sms';
        const sent = await accountPageApi.sendPhoneCode(delivery);
        setState((now) => ({ ...now, codeSentTo: sent.phone }));
        return 'stay';
      }),
    withCode: (code: string) =>
      attempt(async () => {
        const deliveryType =
          state.factor === 'totp' ? 'totp' : factor?.deliveryType === 'voice' ? 'voice' : 'sms';
        if (state.factor === 'recovery') await accountPageApi.verifyFactor({ recoveryCode: code });
        else await accountPageApi.verifyFactor({ code, deliveryType });
        return 'done';
      }),
    useRecoveryCode: () =>
      setState((now) => ({ ...now, factor: 'recovery', fieldError: undefined, notice: undefined })),
  };
}

export type Reproof = ReturnType<typeof useReproof>;
