import { type AdminTenant, adminTenantSchema } from '@keycard/contract/admin';
import { Link, Navigate, useParams } from '@keycard/web/router';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { type TenantSection, tenantPath, tenantSections } from '../../app/paths.ts';
import { callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { OverviewSection } from './overview-section.tsx';

const ThemeEditor = lazy(() => import('../theme/theme-editor.tsx').then((m) => ({ default: m.ThemeEditor })));
const ClientsSection = lazy(() =>
  import('../clients/clients-section.tsx').then((m) => ({ default: m.ClientsSection })),
);
const PartnersSection = lazy(() =>
  import('../partners/partners-section.tsx').then((m) => ({ default: m.PartnersSection })),
);
const UsersSection = lazy(() =>
  import('../users/users-section.tsx').then((m) => ({ default: m.UsersSection })),
);
const SettingsSection = lazy(() =>
  import('../settings/settings-section.tsx').then((m) => ({ default: m.SettingsSection })),
);
const SigningKeysSection = lazy(() =>
  import('../keys/signing-keys-section.tsx').then((m) => ({ default: m.SigningKeysSection })),
);

export interface SectionProps {
  tenant: AdminTenant;
  /** The tenant as a change answered it, or read again. */
  onChange: (tenant?: AdminTenant) => void;
}

export function TenantPage() {
  const { t } = useTranslation();
  const params = useParams();
  const code = params.code ?? '';
  const section = (params.section ?? 'overview') as TenantSection;
  const [tenant, setTenant] = useState<AdminTenant | null>(null);
  const result = useResult();
  const { run } = result;
  const load = useCallback(
    () =>
      run(async () => {
        setTenant(await callApi(`/tenants/${encodeURIComponent(code)}`, adminTenantSchema));
        return undefined;
      }),
    [run, code],
  );
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    document.title = `${t(`tenant.sections.${section}`)} · ${code} | ${t('app.title')}`;
  }, [t, section, code]);
  if (!tenantSections.includes(section)) return <Navigate to={tenantPath(code)} replace />;
  const onChange = (changed?: AdminTenant) => (changed ? setTenant(changed) : void load());
  const props = tenant ? { tenant, onChange } : null;
  return (
    <>
      <h1 tabIndex={-1}>{t('tenant.heading', { code })}</h1>
      <nav aria-label={t('tenant.sectionsLabel')} className="sections">
        <ul>
          {tenantSections.map((name) => (
            <li key={name}>
              <Link to={tenantPath(code, name)} aria-current={name === section ? 'page' : undefined}>
                {t(`tenant.sections.${name}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Result result={result} />
      {props === null ? (
        <p>{t('app.loading')}</p>
      ) : (
        <Suspense fallback={<p>{t('app.loading')}</p>}>
          {section === 'overview' && <OverviewSection {...props} />}
          {section === 'theme' && <ThemeEditor {...props} />}
          {section === 'clients' && <ClientsSection {...props} />}
          {section === 'partners' && <PartnersSection {...props} />}
          {section === 'users' && <UsersSection {...props} />}
          {section === 'settings' && <SettingsSection {...props} />}
          {section === 'keys' && <SigningKeysSection {...props} />}
        </Suspense>
      )}
    </>
  );
}
