import { useTranslation } from '../../../lib/i18n.tsx';
import { TextWithEmail } from '../../../ui/email-text.tsx';
import { LoadingPage, Page } from '../../../ui/page.tsx';
import { CredentialsForm } from '../shared/credentials-form.tsx';
import { SupportLinks } from '../shared/support-links.tsx';
import { useRegistration } from './use-registration.ts';

/** /register/?redirectUri&token — the activation form for a registration link (use-registration.ts). */
export function RegisterPage() {
  const { t } = useTranslation();
  const { state, register } = useRegistration();

  if (state === 'checking' || state === 'signing-in') {
    const label = state === 'checking' ? 'lifecycle.register.checking' : 'lifecycle.register.signingIn';
    return <LoadingPage titleKey="lifecycle.titles.register" label={t(label)} />;
  }
  if (state === 'invalid') {
    return (
      <Page titleKey="lifecycle.titles.register" heading={t('lifecycle.register.invalid.heading')}>
        <p>{t('lifecycle.register.invalid.body')}</p>
        <SupportLinks />
      </Page>
    );
  }
  return (
    <Page titleKey="lifecycle.titles.register" heading={t('lifecycle.register.heading')}>
      <p>
        <TextWithEmail text={t('lifecycle.register.intro', { email: state.email })} email={state.email} />
      </p>
      <CredentialsForm email={state.email} submitLabel={t('lifecycle.register.submit')} submit={register} />
    </Page>
  );
}
