import { describe, expect, it } from 'vitest';
import {
  cardBackground,
  contrastRatio,
  contrastReport,
  nearestPassing,
  nonTextContrast,
  textContrast,
  themeVariables,
} from './contrast.ts';

describe('colour contrast', () => {
  it('computes WCAG ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('keeps a passing colour and moves a failing one only as far as needed', () => {
    expect(nearestPassing('#1f3a5f', '#ffffff', textContrast)).toBe('#1f3a5f');
    const adjusted = nearestPassing('#ffcc00', '#ffffff', textContrast);
    expect(contrastRatio(adjusted, '#ffffff')).toBeGreaterThanOrEqual(textContrast);
    // Nearest: one step less would fail.
    expect(contrastRatio(adjusted, '#ffffff')).toBeLessThan(textContrast + 0.3);
    expect(nearestPassing('#ffffff', '#dddddd', textContrast)).not.toBe('#ffffff');
  });

  it('guarantees every pair the portal draws, for the SPEC defaults and for hostile brands', () => {
    const brands = [
      // SPEC §9 defaults: white text on #ddd fails on its own.
      ['#424242', '#ffffff', '#dddddd', '#ffffff', '#2c2c2c', '#ffffff'],
      ['#ffff00', '#ffffff', '#ffff00', '#ffff00', '#ffffff', '#ffffff'],
      ['#000000', '#000000', '#000000', '#000000', '#000000', '#000000'],
      ['#ff0000', '#00ff00', '#0000ff', '#ff00ff', '#00ffff', '#808080'],
      ['#fff', '#eee', '#f5efe6', '#f5efe6', '#7a5c2e', '#ffffff'],
    ];
    for (const [pb, pf, sb, sf, tb, tf] of brands as string[][]) {
      const v = themeVariables({
        primaryBackground: pb as string,
        primaryForeground: pf as string,
        secondaryBackground: sb as string,
        secondaryForeground: sf as string,
        tertiaryBackground: tb as string,
        tertiaryForeground: tf as string,
      });
      const pair = (fg: string, bg: string) => contrastRatio(v[fg] as string, v[bg] ?? bg);
      expect(pair('--kc-primary-text', '--kc-primary-bg')).toBeGreaterThanOrEqual(textContrast);
      expect(pair('--kc-secondary-text', '--kc-secondary-bg')).toBeGreaterThanOrEqual(textContrast);
      expect(pair('--kc-tertiary-text', '--kc-tertiary-bg')).toBeGreaterThanOrEqual(textContrast);
      expect(pair('--kc-link', '#ffffff')).toBeGreaterThanOrEqual(textContrast);
      expect(pair('--kc-focus', '#ffffff')).toBeGreaterThanOrEqual(nonTextContrast);
      expect(pair('--kc-primary-edge', '#ffffff')).toBeGreaterThanOrEqual(nonTextContrast);
    }
  });

  it("draws links in the brand's own colour when it reads", () => {
    const v = themeVariables({
      primaryBackground: '#1f3a5f',
      primaryForeground: '#ffffff',
      secondaryBackground: '#f5efe6',
      secondaryForeground: '#1f3a5f',
      tertiaryBackground: '#7a5c2e',
      tertiaryForeground: '#ffffff',
    });
    expect(v['--kc-link']).toBe('#1f3a5f');
    expect(v['--kc-primary-text']).toBe('#ffffff');
    // The brand's own six colours stay available as they are.
    expect(v['--kc-secondary-fg']).toBe('#1f3a5f');
    expect(v['--kc-focus']).toBe('#7a5c2e');
  });
});

describe('contrastReport', () => {
  const passing = {
    primaryBackground: '#1f3a5f',
    primaryForeground: '#ffffff',
    secondaryBackground: '#f5efe6',
    secondaryForeground: '#1f1f1f',
    tertiaryBackground: '#7a5c2e',
    tertiaryForeground: '#ffffff',
  };

  it('lists every pair the portal draws, each passing with its ratio and no suggestion', () => {
    const report = contrastReport(passing);
    expect(report.map((check) => check.pair)).toEqual([
      'primaryText',
      'secondaryText',
      'tertiaryText',
      'link',
      'focus',
      'primaryEdge',
    ]);
    for (const check of report) {
      expect(check.passes, check.pair).toBe(true);
      expect(check.suggestion).toBeNull();
    }
    const primary = report[0]!;
    expect(primary).toMatchObject({
      field: 'primaryForeground',
      colour: '#ffffff',
      backgrounds: ['#1f3a5f'],
    });
    expect(primary.ratio).toBeCloseTo(contrastRatio('#ffffff', '#1f3a5f'), 5);
    expect(primary.required).toBe(textContrast);
    expect(report.find((check) => check.pair === 'focus')?.required).toBe(nonTextContrast);
  });

  it('fails a pair below its ratio and suggests the colour the portal draws in its place', () => {
    const colours = { ...passing, primaryForeground: '#3a5070', tertiaryBackground: '#e8e8e8' };
    const report = contrastReport(colours);
    const primary = report.find((check) => check.pair === 'primaryText')!;
    expect(primary.passes).toBe(false);
    expect(primary.ratio).toBeLessThan(textContrast);
    expect(primary.suggestion).not.toBeNull();
    expect(contrastRatio(primary.suggestion!, '#1f3a5f')).toBeGreaterThanOrEqual(textContrast);
    expect(primary.suggestion).toBe(themeVariables(colours)['--kc-primary-text']);
    // The pale tertiary colour: focus rings vanish against the card and the page.
    const focus = report.find((check) => check.pair === 'focus')!;
    expect(focus).toMatchObject({ passes: false, field: 'tertiaryBackground' });
    expect(focus.backgrounds).toEqual([cardBackground, '#f5efe6']);
    expect(focus.suggestion).toBe(themeVariables(colours)['--kc-focus']);
    // The others stay as they were.
    expect(report.filter((check) => !check.passes).map((check) => check.pair)).toEqual([
      'primaryText',
      'tertiaryText',
      'focus',
    ]);
  });

  it('applying every suggestion leaves nothing failing', () => {
    let colours: Record<string, string> = {
      primaryBackground: '#ffff00',
      primaryForeground: '#ffffff',
      secondaryBackground: '#ffff00',
      secondaryForeground: '#ffff00',
      tertiaryBackground: '#ffffff',
      tertiaryForeground: '#ffffff',
    };
    for (let round = 0; round < 12; round++) {
      const failing = contrastReport(colours as never).find((check) => !check.passes);
      if (!failing) break;
      colours = { ...colours, [failing.field]: failing.suggestion! };
    }
    expect(contrastReport(colours as never).every((check) => check.passes)).toBe(true);
  });

  it('checks links in the tertiary colour when only it reads on the card', () => {
    const report = contrastReport({ ...passing, primaryBackground: '#ffd700', primaryForeground: '#000000' });
    const link = report.find((check) => check.pair === 'link')!;
    expect(link).toMatchObject({ field: 'tertiaryBackground', passes: true });
    const edge = report.find((check) => check.pair === 'primaryEdge')!;
    expect(edge.passes).toBe(false);
    expect(contrastRatio(edge.suggestion!, cardBackground)).toBeGreaterThanOrEqual(nonTextContrast);
  });
});
