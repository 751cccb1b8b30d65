import { useTranslation } from '../../lib/i18n.tsx';
import { LoadingPage } from '../../ui/page.tsx';
import { ChooseScreen } from './choose-screen.tsx';
import { ManageScreen } from './manage-screen.tsx';
import { MobileSetup } from './mobile/mobile-setup.tsx';
import { MobileReplaceScreen } from './mobile/replace-screen.tsx';
import { MobileVerifyScreen } from './mobile/verify-screen.tsx';
import { PhoneSetup } from './phone-setup.tsx';
import { TotpSetup } from './totp-setup.tsx';
import { useMfaScreens } from './use-mfa-screens.ts';
import { VerifyScreen } from './verify-screen.tsx';
import './mfa.css';

/** /mfa: the MFA screens of SPEC §2, chosen by the signed-in user's state. */
export function MfaPage() {
  const { t } = useTranslation();
  const { status, view, setView } = useMfaScreens();

  if (!status) return <LoadingPage titleKey="mfa.titles.setup" label={t('common.loading')} />;
  const choose = () => setView('choose');
  switch (view) {
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
