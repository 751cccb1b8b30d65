import { type CountryCode, getCountries, getCountryCallingCode } from 'libphonenumber-js/min';

/** A country the phone setup offers: its region code, its name in the page's language, its calling code. */
export type Country = { region: string; name: string; callingCode: string };

// Portuguese texts are European Portuguese (docs/architecture.md "Plurals"): Portugal, not Brazil.
const languageRegions: Record<string, string> = { pt: 'PT', en: 'GB' };

/**
 * Every country libphonenumber knows, named in `language` and sorted the way that language
 * sorts. Only the calling codes are used here (the MFA chunk, never the login route).
 */
export function countryList(language: string): Country[] {
  const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(language);
  return getCountries()
    .map((region) => ({
      region,
      name: names.of(region) ?? region,
      callingCode: getCountryCallingCode(region),
    }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

export function isCountry(region: string): region is CountryCode {
  return (getCountries() as string[]).includes(region);
}

/**
 * The country to start with: the browser's region for the page's language (de-AT → Austria),
 * else any region the browser names, else the page language's own country (th → Thailand).
 */
export function defaultRegion(language: string, browserLanguages: readonly string[]): string {
  const tags = browserLanguages.flatMap((tag) => {
    try {
      return [new Intl.Locale(tag)];
    } catch {
      return [];
    }
  });
  const ordered = [...tags.filter((tag) => tag.language === language), ...tags];
  for (const tag of ordered) if (tag.region && isCountry(tag.region)) return tag.region;
  const region = languageRegions[language] ?? new Intl.Locale(language).maximize().region;
  return region && isCountry(region) ? region : 'GB';
}

/** Folds case and accents, so "osterreich" finds "Österreich". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

/** The countries whose name, region code or calling code ("+43", "43") matches a search. */
export function filterCountries(countries: readonly Country[], search: string): Country[] {
  const query = fold(search.trim());
  if (!query) return [...countries];
  const digits = query.replace(/^\+|^00/, '');
  return countries.filter(
    (country) =>
      fold(country.name).includes(query) ||
      country.region.toLowerCase() === query ||
      (/^\d+$/.test(digits) && country.callingCode.startsWith(digits)),
  );
}
