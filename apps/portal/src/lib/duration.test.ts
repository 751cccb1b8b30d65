import { describe, expect, it } from 'vitest';
import { durationInWords, roundWait, splitAtWait, waitInWords, waitValues } from './duration.ts';

describe('roundWait', () => {
  it('rounds up, so the promised moment is never too early', () => {
    expect(roundWait(0)).toEqual({ value: 1, unit: 'second' });
    expect(roundWait(0.2)).toEqual({ value: 1, unit: 'second' });
    expect(roundWait(59)).toEqual({ value: 59, unit: 'second' });
    expect(roundWait(60)).toEqual({ value: 1, unit: 'minute' });
    expect(roundWait(61)).toEqual({ value: 2, unit: 'minute' });
    expect(roundWait(849)).toEqual({ value: 15, unit: 'minute' });
  });

  it('keeps minutes up to an hour and a half, an hour as one hour', () => {
    expect(roundWait(3540)).toEqual({ value: 59, unit: 'minute' });
    expect(roundWait(3600)).toEqual({ value: 1, unit: 'hour' });
    expect(roundWait(75 * 60)).toEqual({ value: 75, unit: 'minute' });
    expect(roundWait(90 * 60)).toEqual({ value: 90, unit: 'minute' });
    expect(roundWait(90 * 60 + 1)).toEqual({ value: 2, unit: 'hour' });
  });

  it('counts hours below two days, then days', () => {
    expect(roundWait(47 * 3600)).toEqual({ value: 47, unit: 'hour' });
    expect(roundWait(48 * 3600)).toEqual({ value: 2, unit: 'day' });
    expect(roundWait(48 * 3600 + 1)).toEqual({ value: 3, unit: 'day' });
  });
});

describe('waitInWords', () => {
  it('says one and many in English', () => {
    expect(waitInWords(1, 'en')).toBe('in 1 second');
    expect(waitInWords(45, 'en')).toBe('in 45 seconds');
    expect(waitInWords(60, 'en')).toBe('in 1 minute');
    expect(waitInWords(849, 'en')).toBe('in 15 minutes');
    expect(waitInWords(3600, 'en')).toBe('in 1 hour');
    expect(waitInWords(3 * 86_400, 'en')).toBe('in 3 days');
  });

  it('uses each language’s plural forms', () => {
    expect(waitInWords(60, 'de')).toBe('in 1 Minute');
    expect(waitInWords(14 * 60, 'de')).toBe('in 14 Minuten');
    expect(waitInWords(3600, 'fr')).toBe('dans 1 heure');
    expect(waitInWords(2 * 3600, 'fr')).toBe('dans 2 heures');
    expect(waitInWords(1, 'it')).toBe('tra 1 secondo');
    expect(waitInWords(3 * 86_400, 'es')).toBe('dentro de 3 días');
  });

  it('speaks European Portuguese for pt, and Thai and Indonesian without plural forms', () => {
    expect(waitInWords(14 * 60, 'pt')).toBe('dentro de 14 minutos');
    expect(waitInWords(60, 'pt')).toBe('dentro de 1 minuto');
    expect(waitInWords(2 * 3600, 'th')).toBe('ในอีก 2 ชั่วโมง');
    expect(waitInWords(3 * 86_400, 'id')).toBe('dalam 3 hari');
  });
});

describe('durationInWords', () => {
  it('names the amount without "in", singular or plural', () => {
    expect(durationInWords(60, 'en')).toBe('1 minute');
    expect(durationInWords(120, 'en')).toBe('2 minutes');
    expect(durationInWords(60, 'de')).toBe('1 Minute');
    expect(durationInWords(3600, 'fr')).toBe('1\u00a0heure');
    expect(durationInWords(5 * 3600, 'fr')).toBe('5\u00a0heures');
    expect(durationInWords(2 * 86_400, 'pt')).toBe('2 dias');
  });
});

describe('splitAtWait', () => {
  it('splits a sentence around its wait, with {{when}} or {{duration}}', () => {
    const { when, duration } = waitValues(60, 'en');
    expect(splitAtWait(`Try again ${when}.`, 60, 'en')).toEqual({
      before: 'Try again ',
      words: 'in 1 minute',
      after: '.',
    });
    expect(splitAtWait(`Please wait ${duration}.`, 60, 'en')).toEqual({
      before: 'Please wait ',
      words: '1 minute',
      after: '.',
    });
  });

  it('is null for a sentence without the wait', () => {
    expect(splitAtWait('Try again later.', 60, 'en')).toBeNull();
  });
});
