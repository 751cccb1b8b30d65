import type { Locale } from '@keycard/contract/user-state';
import { describe, expect, it } from 'vitest';
import { leaves, oneIsOnlyOne, placeholders, pluralCategoriesOf } from './catalogue-checks.ts';
import { de as consoleDe } from './console/de.ts';
import { en as consoleEn } from './console/en.ts';
import { es as consoleEs } from './console/es.ts';
import { fr as consoleFr } from './console/fr.ts';
import { id as consoleId } from './console/id.ts';
import { it as consoleIt } from './console/it.ts';
import { pt as consolePt } from './console/pt.ts';
import { th as consoleTh } from './console/th.ts';
import { de } from './de.ts';
import { type English, en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { id } from './id.ts';
import { it as itTexts } from './it.ts';
import { pt } from './pt.ts';
import { th } from './th.ts';
import { isPlural, type Plural, Translator } from './translator.ts';

/** Every catalogue of every app, per language. */
const catalogues: Record<Locale, { portal: unknown; console: unknown }> = {
  en: { portal: en, console: consoleEn },
  de: { portal: de, console: consoleDe },
  es: { portal: es, console: consoleEs },
  fr: { portal: fr, console: consoleFr },
  id: { portal: id, console: consoleId },
  it: { portal: itTexts, console: consoleIt },
  pt: { portal: pt, console: consolePt },
  th: { portal: th, console: consoleTh },
};

/** The plural nodes of a catalogue, by dotted key. */
function pluralNodes(catalogue: unknown): [string, Plural][] {
  return [...leaves(catalogue)].filter((entry): entry is [string, Plural] => isPlural(entry[1]));
}

const counts = [0, 1, 2, 5, 21, 1.5];
const withoutCount = (text: string) => placeholders(text).filter((name) => name !== 'count');

describe('the catalogues', () => {
  it('have plural nodes where a number of things or a duration needs them', () => {
    expect(pluralNodes(en).map(([key]) => key)).toEqual(
      expect.arrayContaining([
        'lifecycle.activateSent.body',
        'lifecycle.passwordWillExpire.inDays',
        'mfa.common.trustDevice',
        'mfa.benefits.trusted',
        'mfa.choose.skipDays',
      ]),
    );
    expect(pluralNodes(consoleEn).map(([key]) => key)).toContain('contrast.someFail');
  });

  it('state a duration with {{count}}, never with a number placeholder of its own', () => {
    const numberNames = /\{\{(days|hours|minutes|seconds)\}\}/;
    for (const [app, catalogue] of [
      ['portal', en],
      ['console', consoleEn],
    ] as const) {
      const stale = [...leaves(catalogue)]
        .filter(
          ([key, text]) =>
            typeof text === 'string' && numberNames.test(text) && !key.startsWith('lifecycle.mail.'),
        )
        .filter(([key]) => key !== 'mfa.messages.sms')
        .map(([key]) => `${app}: ${key}`);
      expect(stale).toEqual([]);
    }
  });
});

describe.each(Object.entries(catalogues))('%s', (locale, { portal, console }) => {
  const language = locale as Locale;
  const categories = pluralCategoriesOf(language);

  describe.each([
    ['portal', portal],
    ['console', console],
  ] as const)('%s', (_app, catalogue) => {
    const nodes = pluralNodes(catalogue);
    const english = new Map(pluralNodes(_app === 'portal' ? en : consoleEn));

    it('writes exactly the categories Intl.PluralRules selects in this language', () => {
      const bad = nodes
        .filter(([, node]) => JSON.stringify(Object.keys(node).sort()) !== JSON.stringify(categories))
        .map(
          ([key, node]) => `${key}: ${Object.keys(node).sort().join(', ')} (wants ${categories.join(', ')})`,
        );
      expect(bad).toEqual([]);
    });

    it('has a plural node exactly where English has one', () => {
      expect(nodes.map(([key]) => key).sort()).toEqual([...english.keys()].sort());
    });

    it('says the number in every form, except a `one` that means 1 alone', () => {
      const bad: string[] = [];
      for (const [key, node] of nodes) {
        for (const [category, form] of Object.entries(node)) {
          if (form === undefined || form.includes('{{count}}')) continue;
          if (category === 'one' && oneIsOnlyOne(language)) continue;
          bad.push(`${key}.${category}: ${JSON.stringify(form)}`);
        }
      }
      expect(bad).toEqual([]);
    });

    it('takes the same other values in every form', () => {
      const bad: string[] = [];
      for (const [key, node] of nodes) {
        const want = withoutCount(node.other);
        for (const [category, form] of Object.entries(node)) {
          if (form !== undefined && JSON.stringify(withoutCount(form)) !== JSON.stringify(want)) {
            bad.push(`${key}.${category}: ${JSON.stringify(form)}`);
          }
        }
      }
      expect(bad).toEqual([]);
    });

    it(`reads well for the counts ${counts.join(', ')}`, () => {
      for (const [key, node] of nodes) {
        for (const count of counts) {
          const rules = new Intl.PluralRules(language === 'pt' ? 'pt-PT' : language);
          const form = node[rules.select(count)] ?? node.other;
          expect(node[rules.select(count)], `${key} has no form for ${count}`).toBeDefined();
          expect(form.trim(), `${key} for ${count}`).not.toBe('');
        }
      }
    });
  });
});

describe('plural texts, as a screen shows them', () => {
  const page = (language: Locale, texts: unknown) =>
    new Translator<English>(language, { base: en, load: async () => en }, texts as typeof en).t;

  it('en', () => {
    const t = page('en', en);
    expect(counts.map((count) => t('mfa.choose.skipDays', { count }))).toEqual([
      'Skip for now (0 days left)',
      'Skip for now (1 day left)',
      'Skip for now (2 days left)',
      'Skip for now (5 days left)',
      'Skip for now (21 days left)',
      'Skip for now (1.5 days left)',
    ]);
    expect(t('mfa.benefits.trusted', { count: 1 })).toBe(
      'On a trusted device you only need a code once a day.',
    );
    expect(t('mfa.benefits.trusted', { count: 30 })).toBe(
      'On a trusted device you only need a code every 30 days.',
    );
  });

  it('de', () => {
    const t = page('de', de);
    expect(t('lifecycle.passwordWillExpire.inDays', { count: 1 })).toBe('Ihr Passwort läuft in 1 Tag ab.');
    expect(t('lifecycle.passwordWillExpire.inDays', { count: 21 })).toBe(
      'Ihr Passwort läuft in 21 Tagen ab.',
    );
    expect(t('mfa.common.trustDevice', { count: 1 })).toBe(
      'Diesem Gerät vertrauen: 1 Tag lang nicht erneut fragen',
    );
  });

  it('fr (0 and 1.5 take the singular)', () => {
    const t = page('fr', fr);
    expect(t('mfa.choose.skipDays', { count: 0 })).toBe('Ignorer pour l’instant (0 jour restant)');
    expect(t('mfa.choose.skipDays', { count: 1.5 })).toBe('Ignorer pour l’instant (1,5 jour restant)');
    expect(t('mfa.choose.skipDays', { count: 2 })).toBe('Ignorer pour l’instant (2 jours restants)');
    expect(t('mfa.choose.skipDays', { count: 1_000_000 })).toBe(
      'Ignorer pour l’instant (1\u202f000\u202f000 de jours restants)',
    );
  });

  it('th (one form for every count)', () => {
    const t = page('th', th);
    expect(t('lifecycle.passwordWillExpire.inDays', { count: 1 })).toBe('รหัสผ่านของคุณจะหมดอายุในอีก 1 วัน');
    expect(t('lifecycle.passwordWillExpire.inDays', { count: 5 })).toBe('รหัสผ่านของคุณจะหมดอายุในอีก 5 วัน');
  });
});
