import { type Locale, localeNames, locales, toLocale } from '@keycard/contract/user-state';
import { useId } from 'react';
import { useTranslation, useTranslator } from '../lib/i18n.tsx';
import { switchLanguage } from '../lib/language.ts';

/** The language menu under every screen: each language by its own name, kept for the browser. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const translator = useTranslator();
  const id = useId();
  const current = toLocale(i18n.language) ?? 'en';
  return (
    <div className="kc-language">
      <label htmlFor={id}>{t('common.language')}</label>
      <select
        id={id}
        value={current}
        onChange={(event) => void switchLanguage(translator, event.target.value as Locale)}
      >
        {locales.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {localeNames[locale]}
          </option>
        ))}
      </select>
    </div>
  );
}
