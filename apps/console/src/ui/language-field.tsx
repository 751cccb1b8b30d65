import { type Locale, locales } from '@keycard/contract/user-state';
import { languageNames } from '../lib/i18n.tsx';

/** A labelled choice of one of the eight languages, each named in itself. */
export function LanguageField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: Locale;
  onChange: (locale: Locale) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as Locale)}>
        {locales.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageNames[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
