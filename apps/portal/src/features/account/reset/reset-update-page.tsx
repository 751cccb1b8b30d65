import { useTranslation } from '../../../lib/i18n.tsx';
import { TextWithEmail } from '../../../ui/email-text.tsx';
import { LoadingPage, Page } from '../../../ui/page.tsx';
import { NewPasswordForm } from '../shared/credentials-form.tsx';
import { SessionDialog } from '../shared/session-dialog.tsx';
import { useResetUpdate } from './use-reset.ts';

/** /reset-password/update?token&email — the new password for a reset link (use-reset.ts). */
export function ResetUpdatePage() {
  const { t } = useTranslation();
  const { session, ready, email, reset } = useResetUpdate();

  if (session === 'exists') {
    return (
      <Page titleKey="lifecycle.titles.resetPasswordUpdate" heading={t('lifecycle.resetUpdate.heading')}>
        <SessionDialog />
      </Page>
    );
  }
  if (!ready || !email) {
    return (
      <LoadingPage
        titleKey="lifecycle.titles.resetPasswordUpdate"
        label={t('lifecycle.resetUpdate.checking')}
      />
    );
  }
  return (
    <Page titleKey="lifecycle.titles.resetPasswordUpdate" heading={t('lifecycle.resetUpdate.heading')}>
      <p>
        <TextWithEmail text={t('lifecycle.resetUpdate.intro', { email })} email={email} />
      </p>
      <NewPasswordForm email={email} submitLabel={t('lifecycle.resetUpdate.submit')} submit={reset} />
    </Page>
  );
}
