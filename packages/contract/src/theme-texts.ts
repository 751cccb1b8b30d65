import { z } from 'zod';
import { locales } from './user-state.ts';

/**
 * A tenant's own wording for a few texts of its sign-in screens, per language
 * (docs/configuration.md, Theme): the texts a brand changes — what the login page greets with
 * and asks for, and the reset request's explanation. The list is fixed and short on purpose:
 * every key is one the portal, the server's first paint and the preview show, and none takes
 * a parameter. The keys are the portal's own text keys (`packages/texts`), so an override
 * replaces exactly that text in that language and nothing else.
 */
export const overridableTextKeys = [
  /** The e-mail step's heading ("Log in"). */
  'login.email.heading',
  /** The line under it ("Enter the e-mail address of your account."). */
  'login.email.intro',
  /** The password step's heading ("Enter your password"). */
  'login.password.heading',
  /** The reset request's explanation ("Enter the e-mail address of your account and we will…"). */
  'lifecycle.resetRequest.intro',
] as const;
export type OverridableTextKey = (typeof overridableTextKeys)[number];

/** The longest override: a heading or a sentence or two, not a page. */
export const textOverrideMaxLength = 300;

/**
 * One override: plain text on one line, shown exactly as written. No markup is ever
 * interpreted (the portal renders it as a text node, the first paint escapes it) and no
 * placeholder is filled, so `{{…}}` is refused rather than shown as it stands.
 */
export const textOverrideSchema = z
  .string()
  .min(1)
  .max(textOverrideMaxLength)
  .refine((text) => text.trim() !== '', { message: 'not only spaces' })
  .refine((text) => !/\p{Cc}/u.test(text), { message: 'plain text on one line, without control characters' })
  .refine((text) => !/\{\{|\}\}/.test(text), {
    message: 'no {{placeholders}}: an override is shown exactly as written',
  });

/**
 * `texts` of a theme: per language, the overridden keys and their text. A language without
 * an entry (or a key without one) shows the catalogue's text; the override of one language is
 * never shown in another.
 */
export const themeTextsSchema = z.partialRecord(
  z.enum(locales),
  z.partialRecord(z.enum(overridableTextKeys), textOverrideSchema),
);
export type ThemeTexts = z.infer<typeof themeTextsSchema>;

/**
 * The overrides without languages that override nothing, or undefined when none is left: one
 * form for "no overrides", so a file without `texts`, `texts: {}` and `texts: { de: {} }`
 * compare, store and export alike.
 */
export function compactThemeTexts(texts: ThemeTexts | undefined): ThemeTexts | undefined {
  const languages = Object.entries(texts ?? {}).filter(([, own]) => Object.keys(own ?? {}).length > 0);
  return languages.length > 0 ? (Object.fromEntries(languages) as ThemeTexts) : undefined;
}
