import type { AdminTenant } from '@keycard/contract/admin';
import { adminOperations } from '@keycard/contract/admin-paths';
import { Link, Navigate, useParams } from '@keycard/web/router';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { OverviewSection } from '../features/tenants/overview-section.tsx';
import { adminRequest } from '../lib/admin-client.ts';
import { useTranslation } from '../lib/i18n.tsx';
import { type TenantSection, tenantPath, tenantSections } from '../lib/paths.ts';
import { Result, useResult } from '../ui/result.tsx';

const ThemeEditor = lazy(() =>
  import('../features/theme/theme-editor.tsx').then((m) => ({ default: m.ThemeEditor })),
);
const ClientsSection = lazy(() =>
  import('../features/clients/clients-section.tsx').then((m) => ({ default: m.ClientsSection })),
);
const PartnersSection = lazy(() =>
  import('../features/partners/partners-section.tsx').then((m) => ({ default: m.PartnersSection })),
);
const UsersSection = lazy(() =>
  import('../features/users/users-section.tsx').then((m) => ({ default: m.UsersSection })),
);
const SettingsSection = lazy(() =>
  import('../features/settings/settings-section.tsx').then((m) => ({ default: m.SettingsSection })),
);
const SigningKeysSection = lazy(() =>
  import('../features/keys/signing-keys-section.tsx').then((m) => ({ default: m.SigningKeysSection })),
);

export function TenantPage() {
  const { t } = useTranslation();
  const params = useParams();
  const code = params.code ?? '';
  const requested = params.section ?? 'overview';
  const section: TenantSection | undefined = tenantSections.find((name) => name === requested);
  const [tenant, setTenant] = useState<AdminTenant | null>(null);
  const result = useResult();
  const { run } = result;
  const load = useCallback(
    () =>
      run(async () => {
        setTenant(await adminRequest(adminOperations.getTenant, { params: { code } }));
        return undefined;
      }),
    [run, code],
  );
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (section) document.title = `${t(`tenant.sections.${section}`)} · ${code} | ${t('app.title')}`;
  }, [t, section, code]);
  if (!section) return <Navigate to={tenantPath(code)} replace />;
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
