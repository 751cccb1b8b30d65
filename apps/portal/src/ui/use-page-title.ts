import { useEffect } from 'react';
import { useBranding } from '../lib/branding.tsx';
import { type PortalTextKey, useTranslation } from '../lib/i18n.tsx';

/** SPEC §2: the page title is the route's translated title followed by the theme name. */
export function usePageTitle(titleKey: PortalTextKey): void {
  const { t } = useTranslation();
  const branding = useBranding();
  const title = t(titleKey);
  const suffix = branding?.theme.name ?? t('common.appName');
  useEffect(() => {
    document.title = `${title} | ${suffix}`;
  }, [title, suffix]);
}
