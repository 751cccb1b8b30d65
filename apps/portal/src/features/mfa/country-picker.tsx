import { type Ref, useId, useMemo, useState } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';
import { type Country, filterCountries } from './countries.ts';

/**
 * The phone's country: a search field that narrows a native <select> (its own keyboard,
 * screen-reader and mobile behaviour), each country with its calling code ("Österreich +43").
 * The number of matches is announced politely; when the chosen country drops out of the
 * matches, the first match is chosen, so the select always shows what will be sent.
 */
export function CountryPicker({
  countries,
  region,
  onChange,
  error,
  selectRef,
}: {
  countries: readonly Country[];
  region: string;
  onChange: (region: string) => void;
  error?: string;
  selectRef?: Ref<HTMLSelectElement>;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [search, setSearch] = useState('');
  const matches = useMemo(() => filterCountries(countries, search), [countries, search]);
  const shown = matches.some((country) => country.region === region)
    ? matches
    : [...countries.filter((country) => country.region === region), ...matches];
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');

  function narrow(next: string) {
    setSearch(next);
    const found = filterCountries(countries, next);
    const first = found[0];
    if (first && !found.some((country) => country.region === region)) onChange(first.region);
  }

  return (
    <div className="kc-field kc-mfa-country">
      <label htmlFor={`${id}-search`}>{t('mfa.phone.number.countrySearch')}</label>
      <input
        id={`${id}-search`}
        type="search"
        autoComplete="off"
        aria-describedby={`${id}-hint`}
        aria-controls={`${id}-select`}
        value={search}
        onChange={(event) => narrow(event.target.value)}
        onKeyDown={(event) => {
          // Enter would submit the form: it takes the search's first match instead.
          if (event.key === 'Enter') {
            event.preventDefault();
            const first = matches[0];
            if (first) onChange(first.region);
          }
        }}
      />
      <p id={`${id}-hint`} className="kc-mfa-hint">
        {t('mfa.phone.number.countryCodeHint')}
      </p>
      <p className="kc-mfa-sr-only" role="status" aria-live="polite">
        {search.trim()
          ? matches.length > 0
            ? t('mfa.phone.number.countryMatches', { count: matches.length })
            : t('mfa.phone.number.countryNone')
          : ''}
      </p>
      <label htmlFor={`${id}-select`}>{t('mfa.phone.number.countryCode')}</label>
      <select
        id={`${id}-select`}
        name="country"
        autoComplete="country"
        value={region}
        ref={selectRef}
        aria-describedby={described}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {shown.map((country: Country) => (
          <option key={country.region} value={country.region}>
            {`${country.name} +${country.callingCode}`}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="kc-field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
