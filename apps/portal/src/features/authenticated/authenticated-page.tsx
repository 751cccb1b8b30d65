import { useTranslation } from '../../lib/i18n.tsx';
import { LoadingPage } from '../../ui/page.tsx';
import { EmailVerificationPrompt } from '../account/verify-email/email-verification-prompt.tsx';
import { PasskeyOfferScreen } from '../passkeys/offer-screen.tsx';
import { PasskeyStepUpScreen } from '../passkeys/step-up-screen.tsx';
import { useAuthenticatedFlow } from './use-authenticated-flow.ts';

/**
 * /authenticated: a loader while the hand-off runs, or the e-mail verification prompt, the
 * passkey offer after a password sign-in, or the passkey step-up an app asks for.
 */
export function AuthenticatedPage() {
  const { t } = useTranslation();
  const view = useAuthenticatedFlow();
  switch (view.kind) {
    case 'verifyEmail':
      return <EmailVerificationPrompt email={view.email} />;
    case 'passkeyOffer':
      return <PasskeyOfferScreen onDone={view.next} />;
    case 'passkeyStepUp':
      return <PasskeyStepUpScreen iid={view.iid} onConfirmed={view.next} />;
    default:
      return <LoadingPage titleKey="titles.authenticated" label={t('authenticated.loading')} />;
  }
}
