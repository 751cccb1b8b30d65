import type { ChangePasswordResponse } from '@keycard/contract/account';
import { apiPaths } from '@keycard/contract/api-paths';
import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate } from '@keycard/web/router';
import { type FormEvent, useRef, useState } from 'react';
import { apiRequest } from '../../../lib/api.ts';
import { type PortalTextKey, useTranslation } from '../../../lib/i18n.tsx';
import { routeForState } from '../../../lib/route-for-state.ts';
import { flowStorage } from '../../../lib/storage.ts';
import { type ReproofFactorOf, useReproof } from '../../account-page/use-reproof.ts';
import { accountApi } from '../shared/api.ts';
import { useNewPassword } from '../shared/new-password.tsx';
import { expiryRefusal } from './expiry-errors.ts';

/**
 * The expiry pages change the password right there (docs/account.md): the person has just
 * typed it, so no mail round trip. The current password, the new one twice, one call to the
 * account API's password change; then the sign-in goes on as after the password step: an
 * expired password to the screen its session's state asks for next (MFA, or the app), a
 * will-expire warning to /authenticated with the redirect it was given.
 */
export function usePasswordChangeInPlace(next: 'state' | { redirectUri: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [current, setCurrent] = useState('');
  const [currentError, setCurrentError] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<PortalTextKey | null>(null);
  const [pending, setPending] = useState(false);
  const [changed, setChanged] = useState(false);
  const currentRef = useRef<HTMLInputElement>(null);
  const fresh = useNewPassword();
  const [factor, setFactor] = useState<ReproofFactorOf | null>(null);
  const reproof = useReproof({
    factor,
    passkeyUsable: false,
    onConfirmed: () => change(),
    onCancelled: () => undefined,
    onSignedOut: () => navigate(paths.root, { replace: true }),
  });

  /** The account's factor, for "confirm it's you" (its kind decides code, SMS or recovery code). */
  async function askForFactor() {
    const status = await apiRequest<MfaStatusResponse>('GET', apiPaths.mfa.status).catch(() => null);
    const delivery = status?.factor?.deliveryType;
    const enrolled: ReproofFactorOf | null =
      delivery === 'totp'
        ? { kind: 'authenticator-app', deliveryType: delivery }
        : delivery === 'sms' || delivery === 'voice'
          ? { kind: 'phone', deliveryType: delivery }
          : delivery === 'smmobile'
            ? { kind: 'mobile-app', deliveryType: delivery }
            : null;
    setFactor(enrolled);
    reproof.start('factor', enrolled);
  }

  async function goOn() {
    if (next === 'state') {
      const session = await accountApi.session();
      if (!session.exists) return navigate(paths.root, { replace: true });
      return navigate(routeForState(session.identity.state, new URLSearchParams('applyMfa=true')), {
        replace: true,
      });
    }
    if (next.redirectUri) flowStorage.set(storageKeys.redirectUri, next.redirectUri);
    flowStorage.set(storageKeys.expiryAcknowledged, 'true');
    navigate(paths.authenticated, { replace: true });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setNotice(null);
    setCurrentError(undefined);
    if (!current) {
      setCurrentError(t('common.required'));
      currentRef.current?.focus();
      return;
    }
    const problem = fresh.validate();
    if (problem) {
      problem.current?.focus();
      return;
    }
    await change();
  }

  async function change() {
    setPending(true);
    try {
      await apiRequest<ChangePasswordResponse>('POST', apiPaths.account.password, {
        currentPassword: current,
        newPassword: fresh.password,
      });
      setChanged(true);
      await goOn();
    } catch (caught) {
      const row = expiryRefusal(caught);
      if (row.kind === 'factor') await askForFactor();
      else if (row.kind === 'current') {
        setCurrentError(t(row.key));
        currentRef.current?.focus();
      } else if (row.kind === 'new') fresh.refuse(row.key);
      else if (row.kind === 'signedOut') navigate(paths.root, { replace: true });
      else setNotice(row.key);
    } finally {
      setPending(false);
    }
  }

  return {
    current,
    setCurrent,
    currentError,
    currentRef,
    fresh,
    notice,
    pending,
    changed,
    submit,
    reproof,
  };
}

export type PasswordChangeInPlace = ReturnType<typeof usePasswordChangeInPlace>;
