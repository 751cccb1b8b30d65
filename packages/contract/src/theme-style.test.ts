import { describe, expect, it } from 'vitest';
import type { Theme } from './api.ts';
import { themeSchema } from './api.ts';
import { themeConfigSchema } from './configuration.ts';
import { contrastRatio, darkContrastReport, darkSchemeProblems, darkSchemeVariables } from './contrast.ts';
import { type ServedFont, servedFontFamilies, servedFontStylesheet } from './theme-fonts.ts';
import {
  cssUrl,
  themeCssVariables,
  themeFontStacks,
  themeFonts,
  themeRootAttributes,
} from './theme-style.ts';

const specDefaults: Theme['colours'] = {
  primaryBackground: '#424242',
  primaryForeground: '#ffffff',
  secondaryBackground: '#dddddd',
  secondaryForeground: '#ffffff',
  tertiaryBackground: '#2c2c2c',
  tertiaryForeground: '#ffffff',
};
const allGrey: Theme['colours'] = {
  primaryBackground: '#777777',
  primaryForeground: '#6a6a6a',
  secondaryBackground: '#808080',
  secondaryForeground: '#707070',
  tertiaryBackground: '#757575',
  tertiaryForeground: '#7a7a7a',
};
const theme: Theme = {
  name: 'Summit',
  images: { logo: '', favicon: '' },
  colours: specDefaults,
  links: { loginHelpUrl: null, contactSupportUrl: null },
};

describe('dark scheme', () => {
  const brands: Theme['colours'][] = [
    specDefaults,
    // A pale brand (yellow on white), a dark navy one, a saturated red one.
    {
      ...specDefaults,
      primaryBackground: '#ffcc00',
      tertiaryBackground: '#fff3b0',
      primaryForeground: '#000000',
    },
    {
      ...specDefaults,
      primaryBackground: '#001f5b',
      secondaryBackground: '#0b1d3a',
      tertiaryBackground: '#00113a',
    },
    {
      ...specDefaults,
      primaryBackground: '#d50000',
      secondaryBackground: '#ffebee',
      tertiaryBackground: '#b71c1c',
    },
  ];

  it('draws every pair at WCAG 2.2 AA for palettes with a light colour', () => {
    for (const colours of brands) {
      const report = darkContrastReport(colours);
      expect(report.length).toBe(9);
      for (const check of report) {
        expect(check.passes, `${check.pair} ${check.colour} for ${JSON.stringify(colours)}`).toBe(true);
        for (const background of check.backgrounds) {
          expect(contrastRatio(check.colour, background)).toBeGreaterThanOrEqual(check.required);
        }
      }
      expect(darkSchemeProblems(colours)).toEqual([]);
    }
  });

  it('is dark: the card and the page are drawn near black, darkened from the brand', () => {
    const v = darkSchemeVariables(specDefaults);
    expect(contrastRatio(v['--kc-card-bg'] as string, '#000000')).toBeLessThan(1.5);
    expect(contrastRatio(v['--kc-secondary-bg'] as string, '#000000')).toBeLessThan(1.3);
    expect(v['--kc-text']).toBe('#ffffff');
  });

  it('fails, with the pair and ratio in words, when the palette has no colour light enough', () => {
    const problems = darkSchemeProblems(allGrey);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(
      /^dark scheme: text #808080 on #[0-9a-f]{6} is \d\.\d\d:1, WCAG 2\.2 AA needs 4\.5:1/,
    );
  });

  it('is refused by the theme schema with that reason, and allowed when it passes or is off', () => {
    const refused = themeConfigSchema.safeParse({ ...theme, colours: allGrey, darkScheme: true });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path.join('.'))).toContain('darkScheme');
    expect(refused.error?.issues[0]?.message).toMatch(/dark scheme: text/);
    expect(themeConfigSchema.safeParse({ ...theme, colours: allGrey, darkScheme: false }).success).toBe(true);
    expect(themeConfigSchema.safeParse({ ...theme, darkScheme: true }).success).toBe(true);
  });
});

describe('theme style', () => {
  it('bounds the font, corner radius and logo height', () => {
    const paths = (value: unknown) =>
      themeConfigSchema.safeParse(value).error?.issues.map((issue) => issue.path.join('.')) ?? [];
    expect(paths({ ...theme, font: 'comic' })).toEqual(['font']);
    expect(paths({ ...theme, cornerRadius: 25 })).toEqual(['cornerRadius']);
    expect(paths({ ...theme, cornerRadius: -1 })).toEqual(['cornerRadius']);
    expect(paths({ ...theme, cornerRadius: 2.5 })).toEqual(['cornerRadius']);
    expect(paths({ ...theme, logoHeight: 23 })).toEqual(['logoHeight']);
    expect(paths({ ...theme, logoHeight: 97 })).toEqual(['logoHeight']);
    expect(paths({ ...theme, images: { logo: '', favicon: '', background: 'javascript:x' } })).toEqual([
      'images.background',
    ]);
    expect(
      paths({
        ...theme,
        font: 'serif',
        cornerRadius: 0,
        logoHeight: 96,
        images: { ...theme.images, background: '/bg.png' },
      }),
    ).toEqual([]);
    expect(themeSchema.safeParse({ ...theme, font: 'rounded' }).success).toBe(true);
  });

  it('gives a theme without the new fields the portal’s own look', () => {
    const v = themeCssVariables(theme);
    expect(v['--kc-radius']).toBe('8px');
    expect(v['--kc-logo-height']).toBe('40px');
    expect(v['--kc-background-image']).toBe('none');
    expect(v['--kc-font']).toMatch(/^system-ui/);
    expect(Object.keys(v).some((name) => name.startsWith('--kc-dark-'))).toBe(false);
    expect(themeRootAttributes(theme)).toEqual({ 'data-kc-dark': false, 'data-kc-background': false });
  });

  it('puts each served font first in its stack, and serves every pick but the system’s', () => {
    const served = themeFonts.filter((font): font is ServedFont => font !== 'system');
    expect(Object.keys(servedFontFamilies).sort()).toEqual([...served].sort());
    for (const font of served) {
      const family = servedFontFamilies[font];
      const first = themeFontStacks[font]
        .split(',')[0]
        ?.trim()
        .replace(/^"(.*)"$/, '$1');
      expect(first).toBe(family);
      expect(themeCssVariables({ ...theme, font })['--kc-font']).toBe(themeFontStacks[font]);
      expect(servedFontStylesheet(font)).toBe(`/_keycard/fonts/${font}.css`);
    }
    expect(themeFontStacks.system).not.toMatch(/Source|Nunito/);
  });

  it('sets the dark variables only when the dark scheme is on', () => {
    const v = themeCssVariables({ ...theme, darkScheme: true, cornerRadius: 16 });
    expect(v['--kc-dark-card-bg']).toMatch(/^#[0-9a-f]{6}$/);
    expect(v['--kc-dark-text']).toBe('#ffffff');
    expect(v['--kc-radius']).toBe('16px');
  });

  it('writes a background URL that cannot end the url() or the <style> it is in', () => {
    expect(cssUrl('/_keycard/assets/acme/ab12.png')).toBe('url("/_keycard/assets/acme/ab12.png")');
    const hostile = cssUrl('https://x.test/a"</style><script>(1)');
    expect(hostile).toBe('url("https://x.test/a\\22 \\3c /style\\3e \\3c script\\3e \\28 1\\29 ")');
    expect(hostile).not.toContain('<');
  });
});
