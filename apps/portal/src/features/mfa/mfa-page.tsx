import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { useLocation, useNavigate } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';
import { LoadingPage } from '../../ui/page.tsx';
import { mfaApi } from './api.ts';
import { ChooseScreen } from './choose-screen.tsx';
import { wantsReset } from './flow.ts';
import { ManageScreen } from './manage-screen.tsx';
import { describeMfaError } from './mfa-errors.ts';
import { MobileSetup } from './mobile/mobile-setup.tsx';
import { MobileReplaceScreen } from './mobile/replace-screen.tsx';
import { MobileVerifyScreen } from './mobile/verify-screen.tsx';
import { PhoneSetup } from './phone-setup.tsx';
import { ReminderScreen } from './reminder-screen.tsx';
import { TotpSetup } from './totp-setup.tsx';
import { VerifyScreen } from './verify-screen.tsx';
import './mfa.css';

type View = 'reminder' | 'choose' | 'totp' | 'phone' | 'mobile' | 'mobileReplace' | 'verify' | 'manage';

/** Navigation state asking for the method choice (e.g. 'set up again' after a reset). */
export interface MfaPageState {
  setUp?: boolean;
}

/**
 * Where setting up starts: the partner app's registration screen (with the other factors as
 * alternate options) when the tenant lists it first, else the choice of methods.
 */
function setUpView(status: MfaStatusResponse): View {
  return status.methods[0] === 'smmobile' ? 'mobile' : 'choose';
}

function firstView(status: MfaStatusResponse, setUp: boolean): View {
  switch (status.state) {
    case 'MFA_REGISTRATION_RECOMMENDED':
      return setUp ? setUpView(status) : 'reminder';
    case 'MFA_VERIFICATION_REQUIRED':
      return 'verify';
    case 'AUTHENTICATED':
      return status.factor ? 'manage' : setUpView(status);
    default:
      return setUpView(status);
  }
}

/** /mfa: the MFA screens of SPEC §2, chosen by the signed-in user's state. */
export function MfaPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setUp = (useLocation().state as MfaPageState | null)?.setUp === true;
  const [status, setStatus] = useState<MfaStatusResponse | null>(null);
  const [view, setView] = useState<View>('choose');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mfaApi
      .status()
      .then((answer) => {
        if (answer.state === 'PASSWORD_EXPIRED') return navigate(paths.passwordExpired, { replace: true });
        // Resetting MFA (purpose=for-mfa-reset): the reset's own proof passes MFA as well.
        if (answer.state === 'MFA_VERIFICATION_REQUIRED' && wantsReset()) {
          return navigate(paths.mfaReset, { replace: true });
        }
        setView(firstView(answer, setUp));
        setStatus(answer);
      })
      .catch((caught: unknown) =>
        navigate(describeMfaError(caught).signedOut ? paths.root : paths.error, { replace: true }),
      );
  }, [navigate, setUp]);

  if (!status) return <LoadingPage titleKey="mfa.titles.setup" label={t('common.loading')} />;
  const choose = () => setView('choose');
  switch (view) {
    case 'reminder':
      return <ReminderScreen status={status} onSetUp={() => setView(setUpView(status))} />;
    case 'totp':
      return <TotpSetup status={status} onBack={choose} />;
    case 'phone':
      return <PhoneSetup status={status} onBack={choose} />;
    case 'mobile':
      return <MobileSetup status={status} onBack={choose} onChoose={setView} />;
    case 'mobileReplace':
      return <MobileReplaceScreen status={status} onCancel={() => setView('manage')} />;
    case 'verify':
      return status.factor?.deliveryType === 'smmobile' ? (
        <MobileVerifyScreen status={status} />
      ) : (
        <VerifyScreen status={status} />
      );
    case 'manage':
      return <ManageScreen status={status} onReplace={() => setView('mobileReplace')} />;
    default:
      return <ChooseScreen status={status} onChoose={setView} />;
  }
}
