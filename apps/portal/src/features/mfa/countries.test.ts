import { describe, expect, it } from 'vitest';
import { countryList, defaultRegion, filterCountries } from './countries.ts';

describe('the phone country picker’s countries', () => {
  it('start from the browser region for the page language, else the language’s country', () => {
    expect(defaultRegion('de', ['de-AT', 'de'])).toBe('AT');
    expect(defaultRegion('en', ['en-GB'])).toBe('GB');
    expect(defaultRegion('th', ['th'])).toBe('TH');
    expect(defaultRegion('pt', ['pt'])).toBe('PT');
    expect(defaultRegion('id', [])).toBe('ID');
    // The page is German, the browser names Switzerland for German.
    expect(defaultRegion('de', ['fr-FR', 'de-CH'])).toBe('CH');
    // A browser region in another language still says where the person is.
    expect(defaultRegion('fr', ['en-US'])).toBe('US');
    expect(defaultRegion('de', ['not a tag', 'de'])).toBe('DE');
  });

  it('are named in the page language, sorted its way, each with its calling code', () => {
    const german = countryList('de');
    expect(german.find((country) => country.region === 'AT')).toEqual({
      region: 'AT',
      name: 'Österreich',
      callingCode: '43',
    });
    expect(german.length).toBeGreaterThan(200);
    const names = german.map((country) => country.name);
    expect(names.indexOf('Österreich')).toBeLessThan(names.indexOf('Polen'));
  });

  it('are found by name without accents, by region code and by calling code', () => {
    const german = countryList('de');
    expect(filterCountries(german, 'osterr').map((country) => country.region)).toEqual(['AT']);
    expect(filterCountries(german, 'ch').map((country) => country.region)).toContain('CH');
    expect(filterCountries(german, '+43').map((country) => country.region)).toEqual(['AT']);
    expect(filterCountries(german, '0044').map((country) => country.region)).toContain('GB');
    expect(filterCountries(german, '  ').length).toBe(german.length);
    expect(filterCountries(countryList('th'), 'ไทย').map((country) => country.region)).toEqual(['TH']);
  });
});
