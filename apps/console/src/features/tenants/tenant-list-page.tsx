import { type AdminAnswer, adminOperations } from '@keycard/contract/admin-paths';
import { Link, useLocation } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { consolePaths, tenantPath } from '../../lib/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { CardList } from '../../ui/card-list.tsx';
import { Field } from '../../ui/field.tsx';
import { Result, useResult } from '../../ui/result.tsx';

type TenantSummary = AdminAnswer<typeof adminOperations.listTenants>['tenants'][number];

/** What the page that led here had to say (a tenant deleted), kept in this history entry. */
export interface TenantListState {
  notice?: string;
}

function noticeOf(state: unknown): string {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return '';
  return typeof state.notice === 'string' ? state.notice : '';
}

export function TenantListPage() {
  const { t } = useTranslation();
  const [tenants, setTenants] = useState<TenantSummary[] | null>(null);
  const [query, setQuery] = useState('');
  const result = useResult();
  const { run } = result;
  const { can } = useSession();
  const location = useLocation();
  const [notice, setNotice] = useState('');
  // Set after the first paint, so the status region is there before its text and is announced.
  useEffect(() => setNotice(noticeOf(location.state)), [location.state]);
  useEffect(() => {
    document.title = `${t('tenants.heading')} | ${t('app.title')}`;
  }, [t]);
  useEffect(() => {
    void run(async () => {
      setTenants((await adminRequest(adminOperations.listTenants)).tenants);
      return undefined;
    });
  }, [run]);
  const needle = query.trim().toLowerCase();
  const shown = (tenants ?? []).filter(
    (tenant) =>
      !needle ||
      tenant.code.includes(needle) ||
      tenant.loginDomain.includes(needle) ||
      tenant.aliasDomains.some((domain) => domain.includes(needle)),
  );
  return (
    <>
      <h1 tabIndex={-1}>{t('tenants.heading')}</h1>
      <p role="status" className={notice ? 'notice notice-ok' : 'notice-empty'}>
        {notice}
      </p>
      <Result result={result} />
      {can('tenants.create') && (
        <p>
          <Link to={consolePaths.newTenant} className="button-link">
            {t('tenants.new')}
          </Link>
        </p>
      )}
      <Field id="tenant-search" className="search" label={t('tenants.search')} hint={t('tenants.searchHint')}>
        {(control) => (
          <input
            {...control}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        )}
      </Field>
      <CardList
        items={tenants === null ? null : shown}
        itemKey={(tenant) => tenant.code}
        loading={t('app.loading')}
        empty={t('tenants.empty')}
        className="tenant-list"
        label={t('tenants.count', { count: shown.length })}
        level={2}
        heading={(tenant) => <Link to={tenantPath(tenant.code)}>{tenant.code}</Link>}
        facts={(tenant) => [
          { label: t('tenants.loginDomain'), value: tenant.loginDomain },
          tenant.aliasDomains.length > 0 && {
            label: t('tenants.aliasDomains'),
            value: tenant.aliasDomains.join(', '),
          },
          { label: t('tenants.version'), value: tenant.version },
        ]}
      />
    </>
  );
}
