import { adminTenantListResponse } from '@keycard/contract/admin';
import { Link, useLocation } from '@keycard/web/router';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { consolePaths, tenantPath } from '../../app/paths.ts';
import { callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { Result, useResult } from '../../ui/result.tsx';

type TenantSummary = z.infer<typeof adminTenantListResponse>['tenants'][number];

/** What the page that led here had to say (a tenant deleted), kept in this history entry. */
export interface TenantListState {
  notice?: string;
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
  useEffect(() => setNotice((location.state as TenantListState | null)?.notice ?? ''), [location.state]);
  useEffect(() => {
    document.title = `${t('tenants.heading')} | ${t('app.title')}`;
  }, [t]);
  useEffect(() => {
    void run(async () => {
      setTenants((await callApi('/tenants', adminTenantListResponse)).tenants);
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
      <div className="field search">
        <label htmlFor="tenant-search">{t('tenants.search')}</label>
        <input
          id="tenant-search"
          type="search"
          value={query}
          aria-describedby="tenant-search-hint"
          onChange={(event) => setQuery(event.target.value)}
        />
        <p id="tenant-search-hint" className="hint">
          {t('tenants.searchHint')}
        </p>
      </div>
      {tenants === null ? (
        <p>{t('app.loading')}</p>
      ) : shown.length === 0 ? (
        <p>{t('tenants.empty')}</p>
      ) : (
        <ul className="cards tenant-list" aria-label={t('tenants.count', { count: shown.length })}>
          {shown.map((tenant) => (
            <li key={tenant.code} className="card">
              <h2>
                <Link to={tenantPath(tenant.code)}>{tenant.code}</Link>
              </h2>
              <dl>
                <div>
                  <dt>{t('tenants.loginDomain')}</dt>
                  <dd>{tenant.loginDomain}</dd>
                </div>
                {tenant.aliasDomains.length > 0 && (
                  <div>
                    <dt>{t('tenants.aliasDomains')}</dt>
                    <dd>{tenant.aliasDomains.join(', ')}</dd>
                  </div>
                )}
                <div>
                  <dt>{t('tenants.version')}</dt>
                  <dd>{tenant.version}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
