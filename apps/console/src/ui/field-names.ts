import type { Locale } from '@keycard/contract/user-state';
import { themeExtrasTexts } from '@keycard/texts/console/theme-extras';
import type { TextKey, Translate } from '../lib/i18n.tsx';
import { colourFields } from './colour-input.tsx';

/**
 * Readable names of the admin API's fields that a refusal may name without any form marking
 * them (issue 19 item 4: an alert never shows an API path such as `colours.primaryBackground`).
 * Only paths whose meaning does not depend on the form are here: `name` is a theme's in one
 * form and a client's in another, so it is left to the general sentence.
 */
const labelKeys: Record<string, TextKey> = {
  loginDomain: 'overview.loginDomain',
  aliasDomains: 'overview.aliasDomains',
  aliasCode: 'overview.aliasCode',
  defaultRedirectUri: 'overview.defaultRedirectUri',
  'links.loginHelpUrl': 'theme.loginHelpUrl',
  'links.contactSupportUrl': 'theme.contactSupportUrl',
  'images.logo': 'theme.logoUrl',
  'images.favicon': 'theme.faviconUrl',
  texts: 'theme.textsHeading',
  ...Object.fromEntries(colourFields.map((field) => [`colours.${field}`, `theme.colours.${field}` as const])),
};

/** The theme's look beyond its colours, named by theme-extras' own texts. */
const extraNames: Record<string, (texts: (typeof themeExtrasTexts)['en']) => string> = {
  font: (texts) => texts.font,
  cornerRadius: (texts) => texts.cornerRadius,
  logoHeight: (texts) => texts.logoHeight,
  darkScheme: (texts) => texts.darkScheme,
  'images.background': (texts) => texts.backgroundUrl,
};

/**
 * A refused field's name as the console labels it, or undefined when it has none. The path is
 * read without list positions (`aliasDomains.1`) and without a leading `theme` (a new tenant's
 * starting theme), and the longest known start of it names it (`texts.de.login…` → overrides).
 */
export function fieldLabel(t: Translate, path: string, language: Locale): string | undefined {
  const parts = path.split(/[.[\]]+/).filter((part) => part !== '' && !/^\d+$/.test(part));
  if (parts[0] === 'theme' && parts.length > 1) parts.shift();
  for (let length = parts.length; length > 0; length--) {
    const known = parts.slice(0, length).join('.');
    const key = labelKeys[known];
    if (key) return t(key);
    const extra = extraNames[known];
    if (extra) return extra(themeExtrasTexts[language]);
  }
  return undefined;
}

/**
 * The fields of a refusal no form marked, by name, each once; undefined when one of them has no
 * name, so the alert says it in a general sentence rather than name some and hide the rest.
 */
export function fieldLabels(t: Translate, paths: string[], language: Locale): string[] | undefined {
  const names: string[] = [];
  for (const path of paths) {
    const name = fieldLabel(t, path, language);
    if (name === undefined) return undefined;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
