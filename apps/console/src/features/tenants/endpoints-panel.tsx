import type { AdminTenant } from '@keycard/contract/admin';
import { useId, useState } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';

/**
 * The addresses an app needs to sign people in with this tenant (issue 19, "endpoints at
 * hand"): the issuer, its discovery and JWKS documents, and the tenant's sign-in page. Keycard
 * serves every domain on the scheme and port the console itself is served on, so they are the
 * console's origin with the tenant's login domain.
 */
export function tenantAddresses(
  tenant: Pick<AdminTenant, 'loginDomain'>,
  location: Location = window.location,
) {
  const origin = `${location.protocol}//${tenant.loginDomain}${location.port ? `:${location.port}` : ''}`;
  const issuer = `${origin}/oidc`;
  return {
    issuer,
    discovery: `${issuer}/.well-known/openid-configuration`,
    jwks: `${issuer}/jwks`,
    signIn: `${origin}/login`,
  };
}

type Address = keyof ReturnType<typeof tenantAddresses>;
const shown: Address[] = ['issuer', 'discovery', 'jwks', 'signIn'];

export function EndpointsPanel({ tenant }: { tenant: AdminTenant }) {
  const { t } = useTranslation();
  const id = useId();
  // Which address was copied (or that copying failed), said in the console's current language.
  const [outcome, setOutcome] = useState<Address | 'failed' | null>(null);
  const addresses = tenantAddresses(tenant);
  const copy = (name: Address) =>
    void navigator.clipboard.writeText(addresses[name]).then(
      () => setOutcome(name),
      () => setOutcome('failed'),
    );
  const copied =
    outcome === null
      ? ''
      : outcome === 'failed'
        ? t('endpoints.copyFailed')
        : t('endpoints.copied', { what: t(`endpoints.${outcome}`) });
  return (
    <section className="panel endpoints" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{t('endpoints.heading')}</h3>
      <p className="hint">{t('endpoints.intro', { clientId: tenant.loginClientId })}</p>
      <dl className="endpoint-list">
        {shown.map((name) => (
          <div key={name} className="endpoint">
            <dt id={`${id}-${name}`}>{t(`endpoints.${name}`)}</dt>
            <dd>
              <code className="wrap">{addresses[name]}</code>
              <button
                type="button"
                className="button-secondary button-small"
                aria-describedby={`${id}-${name}`}
                onClick={() => copy(name)}
              >
                {t('common.copy')}
              </button>
            </dd>
          </div>
        ))}
      </dl>
      <p>
        <a className="button-link" href={addresses.signIn} target="_blank" rel="noopener noreferrer">
          {t('endpoints.open')}
          <span className="visually-hidden"> {t('endpoints.newTab')}</span>
        </a>
      </p>
      <p role="status" className={copied ? 'notice notice-ok' : 'notice-empty'}>
        {copied}
      </p>
    </section>
  );
}
