import { paths } from '@keycard/contract/paths';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBranding } from '../../app/theme.tsx';
import { Page } from '../../ui/page.tsx';

function SupportLink() {
  const { t } = useTranslation();
  const url = useBranding()?.theme.links.contactSupportUrl;
  return url ? (
    <a className="kc-link" href={url} target="_blank" rel="noopener noreferrer">
      {t('common.contactSupport')}
    </a>
  ) : null;
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Page titleKey="titles.notFound" heading={t('errors.notFound.heading')}>
      <p>{t('errors.notFound.body')}</p>
      <Link className="kc-button" to={paths.login}>
        {t('common.backToLogin')}
      </Link>
    </Page>
  );
}

export function UnknownErrorPage() {
  const { t } = useTranslation();
  return (
    <Page titleKey="titles.unknownError" heading={t('errors.unknown.heading')}>
      <p>{t('errors.unknown.body')}</p>
      <Link className="kc-button" to={paths.login}>
        {t('common.backToLogin')}
      </Link>
      <div className="kc-links">
        <SupportLink />
      </div>
    </Page>
  );
}

export function AccountDisabledPage() {
  const { t } = useTranslation();
  return (
    <Page titleKey="titles.accountDisabled" heading={t('errors.accountDisabled.heading')}>
      <p>{t('errors.accountDisabled.body')}</p>
      <Link className="kc-button" to={paths.resetPassword}>
        {t('errors.accountDisabled.reset')}
      </Link>
      <div className="kc-links">
        <SupportLink />
        <Link className="kc-link" to={paths.login}>
          {t('common.backToLogin')}
        </Link>
      </div>
    </Page>
  );
}
