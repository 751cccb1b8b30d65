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

/**
 * What the page that led here had to say (a tenant deleted), kept in this history entry as the
 * counts, so it is said in whichever language the console is in.
 */
export interface TenantListState {
  deleted?: Readonly<Record<string, string | number>>;
}

function deletedOf(state: unknown): TenantListState['deleted'] | null {
  if (typeof state !== 'object' || state === null || !('deleted' in state)) return null;
  return typeof state.deleted === 'object' && state.deleted !== null
    ? (state.deleted as TenantListState['deleted'])
    : null;
}

export function TenantListPage() {
  const { t } = useTranslation();
  const [tenants, setTenants] = useState<TenantSummary[] | null>(null);
  const [query, setQuery] = useState('');
  const result = useResult();
  const { run } = result;
  const { can } = useSession();
  const location = useLocation();
  const [deleted, setDeleted] = useState<TenantListState['deleted'] | null>(null);
  // Set after the first paint, so the status region is there before its text and is announced.
  useEffect(() => setDeleted(deletedOf(location.state)), [location.state]);
  const notice = deleted ? t('tenants.deleted', deleted) : '';
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
      tenant.name.toLowerCase().includes(needle) ||
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
      <Field
        id="tenant-search"
        className="search"
        label={t('tenants.search')}
        hint={t('tenantList.searchHint')}
      >
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
        heading={(tenant) => (
          <span className="tenant-brand">
            <span className="tenant-swatch" style={{ background: tenant.colour }} aria-hidden="true">
              {tenant.logo ? <img src={tenant.logo} alt="" /> : null}
            </span>
            <Link to={tenantPath(tenant.code)}>
              {tenant.name}
              {/* Named by its code too: two tenants may share a name. */}
              <span className="visually-hidden"> ({tenant.code})</span>
            </Link>
          </span>
        )}
        facts={(tenant) => [
          { label: t('tenants.code'), value: <code>{tenant.code}</code> },
          { label: t('tenants.loginDomain'), value: tenant.loginDomain, wrap: true },
          tenant.aliasDomains.length > 0 && {
            label: t('tenants.aliasDomains'),
            value: tenant.aliasDomains.join(', '),
            wrap: true,
          },
        ]}
      />
    </>
  );
}
