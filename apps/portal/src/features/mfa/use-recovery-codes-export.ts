import { useBranding } from '../../lib/branding.tsx';
import { useTranslation } from '../../lib/i18n.tsx';

/**
 * Saving the recovery codes somewhere safe: a text file made in the browser (the codes never
 * travel again) named after the tenant, or the page printed with its print stylesheet, which
 * shows only the codes and the line saying what they are.
 */
export function useRecoveryCodesExport(codes: string[]) {
  const { t, i18n } = useTranslation();
  const branding = useBranding();
  const name = branding?.theme.name ?? t('common.appName');
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date());
  const intro = t('mfa.recovery.fileIntro', { name, date });

  function download() {
    const text = [intro, '', ...codes, ''].join('\n');
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${branding?.tenantCode ?? 'keycard'}-recovery-codes.txt`;
    document.body.append(link);
    link.click();
    link.remove();
    // The download has started from the URL; let it go once the browser has read it.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  return { intro, download, print: () => window.print() };
}
