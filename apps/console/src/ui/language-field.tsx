import { type Locale, locales } from '@keycard/contract/user-state';
import { languageNames } from '../lib/i18n.tsx';
import { Field } from './field.tsx';

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
    <Field id={id} label={label}>
      {(control) => (
        <select
          {...control}
          value={value}
          onChange={(event) => onChange(locales.find((code) => code === event.target.value) ?? value)}
        >
          {locales.map((code) => (
            <option key={code} value={code} lang={code}>
              {languageNames[code]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
