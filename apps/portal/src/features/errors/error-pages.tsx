import { paths } from '@keycard/contract/paths';
import { Link, useRouteError } from '@keycard/web/router';
import { useBranding } from '../../lib/branding.tsx';
import { useTranslation } from '../../lib/i18n.tsx';
import { isLoadFailed } from '../../lib/lazy-page.ts';
import { Page } from '../../ui/page.tsx';

/** The tenant's support link, when its theme has one. */
export function SupportLink() {
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

/**
 * SPEC §8 chunk loading: a part of the portal did not load (network, time-out, or a chunk
 * gone after a deploy). Reloading fetches the page and its chunks again.
 */
export function LoadFailedPage() {
  const { t } = useTranslation();
  return (
    <Page titleKey="titles.loadFailed" heading={t('errors.loadFailed.heading')}>
      <p>{t('errors.loadFailed.body')}</p>
      <button className="kc-button" type="button" onClick={() => window.location.reload()}>
        {t('errors.loadFailed.retry')}
      </button>
      <div className="kc-links">
        <Link className="kc-link" to={paths.login} reloadDocument>
          {t('common.backToLogin')}
        </Link>
        <SupportLink />
      </div>
    </Page>
  );
}

/** What a route shows when it fails: the load-failed screen for a chunk, else the unknown error. */
export function RouteErrorPage() {
  return isLoadFailed(useRouteError()) ? <LoadFailedPage /> : <UnknownErrorPage />;
}
