import { adminTenantSchema, operatorTenantCode } from '@keycard/contract/admin';
import { useState } from 'react';
import { callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { DeleteTenant } from './delete-tenant.tsx';
import type { SectionProps } from './tenant-page.tsx';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function OverviewSection({ tenant, onChange }: SectionProps) {
  const { t, language } = useTranslation();
  const { can, isOwner } = useSession();
  const writable = can('tenants.write');
  const result = useResult();
  const [loginDomain, setLoginDomain] = useState(tenant.loginDomain);
  const [aliasDomains, setAliasDomains] = useState(tenant.aliasDomains.join('\n'));
  const [aliasCode, setAliasCode] = useState(tenant.aliasCode ?? '');
  const [defaultRedirectUri, setDefaultRedirectUri] = useState(tenant.defaultRedirectUri);
  const path = `/tenants/${encodeURIComponent(tenant.code)}`;

  const saveDomains = () =>
    result.run(async () => {
      const changed = await callApi(`${path}/domains`, adminTenantSchema, {
        method: 'PUT',
        body: { loginDomain: loginDomain.trim(), aliasDomains: lines(aliasDomains) },
      });
      onChange(changed);
      return t('common.saved');
    });
  const saveDetails = () =>
    result.run(async () => {
      const changed = await callApi(path, adminTenantSchema, {
        method: 'PATCH',
        body: { aliasCode: aliasCode.trim() || null, defaultRedirectUri: defaultRedirectUri.trim() },
      });
      onChange(changed);
      return t('common.saved');
    });

  return (
    <section aria-labelledby="overview-heading">
      <h2 id="overview-heading">{t('overview.heading')}</h2>
      <Result result={result} />
      {!writable && <p className="hint">{t('common.readOnly')}</p>}
      <p>
        {t('overview.created')}: {new Date(tenant.createdAt).toLocaleString(language)}
      </p>
      <form
        className="panel"
        onSubmit={(event) => {
          event.preventDefault();
          void saveDomains();
        }}
      >
        <h3>{t('overview.domainsHeading')}</h3>
        {!isOwner && <p className="hint">{t('overview.domainsOwnerOnly')}</p>}
        <fieldset disabled={!isOwner || result.busy}>
          <div className="field">
            <label htmlFor="login-domain">{t('overview.loginDomain')}</label>
            <input
              id="login-domain"
              value={loginDomain}
              onChange={(event) => setLoginDomain(event.target.value)}
              required
            />
          </div>
          <div className="field">
            <label htmlFor="alias-domains">{t('overview.aliasDomains')}</label>
            <textarea
              id="alias-domains"
              rows={3}
              value={aliasDomains}
              aria-describedby="alias-domains-hint"
              onChange={(event) => setAliasDomains(event.target.value)}
            />
            <p id="alias-domains-hint" className="hint">
              {t('common.onePerLine')}
            </p>
          </div>
          <button type="submit">{t('overview.saveDomains')}</button>
        </fieldset>
      </form>
      <form
        className="panel"
        onSubmit={(event) => {
          event.preventDefault();
          void saveDetails();
        }}
      >
        <h3>{t('overview.detailsHeading')}</h3>
        <fieldset disabled={!writable || result.busy}>
          <div className="field">
            <label htmlFor="alias-code">
              {t('overview.aliasCode')} {t('common.optional')}
            </label>
            <input id="alias-code" value={aliasCode} onChange={(event) => setAliasCode(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="default-redirect">{t('overview.defaultRedirectUri')}</label>
            <input
              id="default-redirect"
              type="url"
              value={defaultRedirectUri}
              onChange={(event) => setDefaultRedirectUri(event.target.value)}
              required
            />
          </div>
          <p>
            {t('overview.loginClientId')}: <code>{tenant.loginClientId}</code>
          </p>
          <button type="submit">{t('overview.saveDetails')}</button>
        </fieldset>
      </form>
      {/* Owners only, and never the operator tenant: the API refuses both as well. */}
      {isOwner && tenant.code !== operatorTenantCode && <DeleteTenant code={tenant.code} />}
    </section>
  );
}
