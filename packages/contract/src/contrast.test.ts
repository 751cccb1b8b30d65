import { describe, expect, it } from 'vitest';
import { contrastRatio, nearestPassing, nonTextContrast, textContrast, themeVariables } from './contrast.ts';

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
