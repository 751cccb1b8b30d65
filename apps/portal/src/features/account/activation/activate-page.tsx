import { useTranslation } from '../../../lib/i18n.tsx';
import { TextWithEmail } from '../../../ui/email-text.tsx';
import { LoadingPage, Page } from '../../../ui/page.tsx';
import { CredentialsForm } from '../shared/credentials-form.tsx';
import { SessionDialog } from '../shared/session-dialog.tsx';
import { useActivation } from './use-activation.ts';

/** /activate/?token — validate the link, then set the password and the secret question. */
export function ActivatePage() {
  const { t } = useTranslation();
  const { session, email, activate } = useActivation();

  if (session === 'exists') {
    return (
      <Page titleKey="lifecycle.titles.activate" heading={t('lifecycle.activate.heading')}>
        <SessionDialog />
      </Page>
    );
  }
  if (!email) {
    return <LoadingPage titleKey="lifecycle.titles.activate" label={t('lifecycle.activate.checking')} />;
  }
  return (
    <Page titleKey="lifecycle.titles.activate" heading={t('lifecycle.activate.heading')}>
      <p>
        <TextWithEmail text={t('lifecycle.activate.intro', { email })} email={email} />
      </p>
      <CredentialsForm email={email} submitLabel={t('lifecycle.activate.submit')} submit={activate} />
    </Page>
  );
}
