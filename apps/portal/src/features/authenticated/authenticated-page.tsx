import { useTranslation } from '../../lib/i18n.tsx';
import { LoadingPage } from '../../ui/page.tsx';
import { EmailVerificationPrompt } from '../account/verify-email/email-verification-prompt.tsx';
import { useAuthenticatedFlow } from './use-authenticated-flow.ts';

/** /authenticated: a loader while the hand-off runs, or the e-mail verification prompt. */
export function AuthenticatedPage() {
  const { t } = useTranslation();
  const { verifyEmail } = useAuthenticatedFlow();
  if (verifyEmail) return <EmailVerificationPrompt email={verifyEmail} />;
  return <LoadingPage titleKey="titles.authenticated" label={t('authenticated.loading')} />;
}
