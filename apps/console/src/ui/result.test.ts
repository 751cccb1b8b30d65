import { loadConsoleTexts } from '@keycard/texts/console/catalogues';
import { de as consoleDe } from '@keycard/texts/console/de';
import { type ConsoleEnglish, en as consoleEn } from '@keycard/texts/console/en';
import { themeExtrasTexts } from '@keycard/texts/console/theme-extras';
import { Translator } from '@keycard/texts/translator';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-error.ts';
import type { Translate } from '../lib/i18n.tsx';
import { errorText } from './result.tsx';

async function translateIn(language: 'en' | 'de'): Promise<Translate> {
  const translator = new Translator<ConsoleEnglish>(
    'en',
    { base: consoleEn, load: loadConsoleTexts },
    consoleEn,
  );
  await translator.switchTo(language);
  return translator.t;
}

const refused = (fields: Record<string, string>) => new ApiError('common.validation_failed', 400, { fields });

describe('errorText of a refusal no form marked', () => {
  it('names the fields by their labels, each once, never by API path', async () => {
    const t = await translateIn('en');
    const text = errorText(
      t,
      refused({
        'colours.primaryBackground': 'Invalid hex colour',
        'theme.colours.secondaryForeground': 'Invalid hex colour',
        'aliasDomains.0': 'host name',
        'aliasDomains.2': 'host name',
        cornerRadius: 'Too big',
      }),
      'en',
    );
    expect(text).toBe(
      `Some values are not valid: ${consoleEn.theme.colours.primaryBackground}, ${consoleEn.theme.colours.secondaryForeground}, ${consoleEn.overview.aliasDomains}, ${themeExtrasTexts.en.cornerRadius}.`,
    );
    expect(text).not.toMatch(/colours\.|aliasDomains|cornerRadius/);
  });

  it("says them in the console's language", async () => {
    const t = await translateIn('de');
    const text = errorText(t, refused({ 'links.loginHelpUrl': 'Invalid URL', font: 'Invalid option' }), 'de');
    expect(text).toBe(
      `Einige Werte sind ungültig: ${consoleDe.theme.loginHelpUrl}, ${themeExtrasTexts.de.font}.`,
    );
  });

  it('says a general sentence when one field has no name, or none is named', async () => {
    const t = await translateIn('de');
    const general = consoleDe.fieldErrors.unplaced;
    expect(
      errorText(t, refused({ 'theme.colors.primary': 'Invalid', 'links.loginHelpUrl': 'x' }), 'de'),
    ).toBe(general);
    expect(errorText(t, refused({ name: 'Too big' }), 'de')).toBe(general);
    expect(errorText(t, refused({}), 'de')).toBe(general);
    expect(errorText(t, new ApiError('common.validation_failed', 400), 'de')).toBe(general);
    expect(general).not.toContain('{{');
  });
});
