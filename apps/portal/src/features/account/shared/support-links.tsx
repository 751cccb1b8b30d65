import { paths } from '@keycard/contract/paths';
import { Link } from '@keycard/web/router';
import { useBranding } from '../../../lib/branding.tsx';
import { useTranslation } from '../../../lib/i18n.tsx';

/** The tenant's contact-support link (when it has one) and the way back to login. */
export function SupportLinks({ backToLogin = true }: { backToLogin?: boolean }) {
  const { t } = useTranslation();
  const url = useBranding()?.theme.links.contactSupportUrl;
  return (
    <div className="kc-links">
      {url ? (
        <a className="kc-link" href={url} target="_blank" rel="noopener noreferrer">
          {t('common.contactSupport')}
        </a>
      ) : null}
      {backToLogin ? (
        <Link className="kc-link" to={paths.login}>
          {t('common.backToLogin')}
        </Link>
      ) : null}
    </div>
  );
}
