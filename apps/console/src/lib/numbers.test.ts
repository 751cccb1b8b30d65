import { describe, expect, it } from 'vitest';
import { formatRatio, formatRequired } from './numbers.ts';

describe('numbers in the console', () => {
  it('writes a contrast ratio with the decimal sign of its language, cut to two decimals', () => {
    expect(formatRatio(4.4999, 'en')).toBe('4.49');
    expect(formatRatio(4.4999, 'de')).toBe('4,49');
    expect(formatRatio(3.3, 'fr')).toBe('3,30');
    expect(formatRatio(3.3, 'es')).toBe('3,30');
    expect(formatRatio(3.3, 'id')).toBe('3,30');
    expect(formatRatio(3.3, 'it')).toBe('3,30');
    expect(formatRatio(3.3, 'pt')).toBe('3,30');
    expect(formatRatio(12.019, 'th')).toBe('12.01');
    // Never shown as meeting a line it misses.
    expect(formatRatio(4.4999, 'en')).not.toBe('4.50');
  });

  it('writes a required ratio the same way', () => {
    expect(formatRequired(4.5, 'de')).toBe('4,5');
    expect(formatRequired(3, 'fr')).toBe('3');
    expect(formatRequired(4.5, 'en')).toBe('4.5');
  });
});
