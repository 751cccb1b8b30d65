import type { Locale } from '@keycard/contract/user-state';
import { describe, expect, it } from 'vitest';
import { leaves } from '../catalogue-checks.ts';
import { de } from '../de.ts';
import { type English, en } from '../en.ts';
import { es } from '../es.ts';
import { fr } from '../fr.ts';
import { id } from '../id.ts';
import { it as itTexts } from '../it.ts';
import { pt } from '../pt.ts';
import { th } from '../th.ts';
import { isPlural, type Plural, Translator } from '../translator.ts';

/**
 * Issue 19 item 15, "1 day": every count a portal screen states is a plural node, and the
 * translator picks the right form for 1 and for 2 in each language.
 */
const portal: Record<Locale, unknown> = { en, de, es, fr, id, it: itTexts, pt, th };

// Texts the server fills with fixed lifetimes, documented as plain strings (docs/architecture.md
// "Plurals"): the mails and the SMS.
const serverFilled = (key: string) => key.startsWith('lifecycle.mail.') || key === 'mfa.messages.sms';

const countTexts = [...leaves(en)].filter((entry): entry is [string, Plural] => isPlural(entry[1]));

describe('count texts', () => {
  it('are plural nodes: no plain text takes a {{count}}', () => {
    const plain = [...leaves(en)]
      .filter(([key, text]) => typeof text === 'string' && text.includes('{{count}}') && !serverFilled(key))
      .map(([key]) => key);
    expect(plain).toEqual([]);
  });

  it('include the MFA screens’ counts', () => {
    expect(countTexts.map(([key]) => key)).toEqual(
      expect.arrayContaining([
        'mfa.common.trustDevice',
        'mfa.reminder.daysLeft',
        'mfa.benefits.trusted',
        'mfa.choose.skipDays',
        'mfa.recovery.remaining',
        'mfa.phone.number.countryMatches',
      ]),
    );
  });

  describe.each(Object.entries(portal))('%s', (locale, catalogue) => {
    const language = locale as Locale;
    const t = new Translator<English>(language, { base: en, load: async () => en }, catalogue as typeof en)
      .t as (key: string, values: { count: number }) => string;
    const rules = new Intl.PluralRules(language === 'pt' ? 'pt-PT' : language);

    it.each(countTexts.map(([key]) => key))('%s says 1 and 2 in their own forms', (key) => {
      const node = [...leaves(catalogue)].find(([name]) => name === key)?.[1];
      if (!isPlural(node)) throw new Error(`${key} is not a plural node in ${language}`);
      // 1 takes the `one` form where the language has one (English "1 day"), 2 the `other`.
      const oneForm = rules.select(1) === 'one' ? node.one : node.other;
      expect(oneForm, `${key}: ${language} needs a form for 1`).toBeDefined();
      expect(t(key, { count: 1 })).toBe(oneForm?.replaceAll('{{count}}', '1'));
      expect(t(key, { count: 2 })).toBe(node.other.replaceAll('{{count}}', '2'));
      expect(t(key, { count: 2 })).toContain('2');
    });
  });
});
