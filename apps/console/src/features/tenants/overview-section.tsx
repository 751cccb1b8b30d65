import { operatorTenantCode } from '@keycard/contract/admin';
import { adminOperations } from '@keycard/contract/admin-paths';
import { useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { Field } from '../../ui/field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { DeleteTenant } from './delete-tenant.tsx';
import { EndpointsPanel } from './endpoints-panel.tsx';

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
  const code = tenant.code;

  const saveDomains = () =>
    result.run(async () => {
      const changed = await adminRequest(adminOperations.replaceTenantDomains, {
        params: { code },
        body: { loginDomain: loginDomain.trim(), aliasDomains: lines(aliasDomains) },
      });
      onChange(changed);
      return (said) => said('common.saved');
    });
  const saveDetails = () =>
    result.run(async () => {
      const changed = await adminRequest(adminOperations.updateTenant, {
        params: { code },
        // Empty: none, a sign-in no app asked for ends on the tenant's signed-in page.
        body: { aliasCode: aliasCode.trim() || null, defaultRedirectUri: defaultRedirectUri.trim() || null },
      });
      onChange(changed);
      return (said) => said('common.saved');
    });

  return (
    <section aria-labelledby="overview-heading">
      <h2 id="overview-heading">{t('overview.heading')}</h2>
      <Result result={result} />
      {!writable && <p className="hint">{t('common.readOnly')}</p>}
      <p>
        {t('overview.created')}: {new Date(tenant.createdAt).toLocaleString(language)}
      </p>
      <EndpointsPanel tenant={tenant} />
      <PanelForm
        heading={t('overview.domainsHeading')}
        intro={!isOwner && <p className="hint">{t('overview.domainsOwnerOnly')}</p>}
        busy={result.busy}
        disabled={!isOwner}
        submit={t('overview.saveDomains')}
        onSubmit={() => void saveDomains()}
      >
        <Field id="login-domain" label={t('overview.loginDomain')}>
          {(control) => (
            <input
              {...control}
              value={loginDomain}
              onChange={(event) => setLoginDomain(event.target.value)}
              required
            />
          )}
        </Field>
        <Field id="alias-domains" label={t('overview.aliasDomains')} hint={t('common.onePerLine')}>
          {(control) => (
            <textarea
              {...control}
              rows={3}
              value={aliasDomains}
              onChange={(event) => setAliasDomains(event.target.value)}
            />
          )}
        </Field>
      </PanelForm>
      <PanelForm
        heading={t('overview.detailsHeading')}
        busy={result.busy}
        disabled={!writable}
        submit={t('overview.saveDetails')}
        onSubmit={() => void saveDetails()}
      >
        <Field
          id="alias-code"
          label={
            <>
              {t('overview.aliasCode')} {t('common.optional')}
            </>
          }
        >
          {(control) => (
            <input {...control} value={aliasCode} onChange={(event) => setAliasCode(event.target.value)} />
          )}
        </Field>
        <Field
          id="default-redirect"
          label={
            <>
              {t('overview.defaultRedirectUri')} {t('common.optional')}
            </>
          }
          hint={t('overview.defaultRedirectUriHint')}
        >
          {(control) => (
            <input
              {...control}
              type="url"
              value={defaultRedirectUri}
              onChange={(event) => setDefaultRedirectUri(event.target.value)}
            />
          )}
        </Field>
        <p>
          {t('overview.loginClientId')}: <code>{tenant.loginClientId}</code>
        </p>
      </PanelForm>
      {/* Owners only, and never the operator tenant: the API refuses both as well. */}
      {isOwner && code !== operatorTenantCode && <DeleteTenant code={code} />}
    </section>
  );
}
