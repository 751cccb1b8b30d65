import type { Locale } from '@keycard/contract/user-state';
import { intlLocale } from '@keycard/texts/translator';
import { useEffect, useState } from 'react';

/**
 * Waits in words, in the page's language: "in 14 minutes", "in 45 Sekunden", "ในอีก 2 ชั่วโมง"
 * (Intl.RelativeTimeFormat), never "849 seconds"; Intl writes the plural ("in 1 minute", "dans
 * 2 heures"), and European Portuguese for the portal's Portuguese ("dentro de 14 minutos"). Texts take the phrase as {{when}} (or the
 * bare amount, "14 minutes", as {{duration}}) and are written so it reads naturally there.
 *
 * Rounded up, so the promised moment is never too early: a retry at "in 14 minutes" passes.
 * Seconds only under a minute; minutes up to 90 (an hour and a quarter reads "in 75
 * minutes", not "in 2 hours"); then hours, and days from two days on.
 */
type Unit = 'second' | 'minute' | 'hour' | 'day';

export interface WordedWait {
  value: number;
  unit: Unit;
}

export function roundWait(totalSeconds: number): WordedWait {
  const seconds = Math.max(1, Math.ceil(totalSeconds));
  if (seconds < 60) return { value: seconds, unit: 'second' };
  const minutes = Math.ceil(seconds / 60);
  if (minutes === 60) return { value: 1, unit: 'hour' };
  if (minutes <= 90) return { value: minutes, unit: 'minute' };
  const hours = Math.ceil(seconds / 3600);
  if (hours < 48) return { value: hours, unit: 'hour' };
  return { value: Math.ceil(seconds / 86_400), unit: 'day' };
}

/** "in 14 minutes" in the locale's words (numeric: "in 1 day", not "tomorrow"). */
export function waitInWords(totalSeconds: number, locale: Locale): string {
  const { value, unit } = roundWait(totalSeconds);
  return new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'always' }).format(value, unit);
}

/** "14 minutes": the same amount without "in", for sentences such as "Please wait 14 minutes". */
export function durationInWords(totalSeconds: number, locale: Locale): string {
  const { value, unit } = roundWait(totalSeconds);
  return new Intl.NumberFormat(intlLocale(locale), { style: 'unit', unit, unitDisplay: 'long' }).format(
    value,
  );
}

/** The values a text with a wait takes: {{when}} ("in 14 minutes") and {{duration}} ("14 minutes"). */
export function waitValues(totalSeconds: number, locale: Locale): { when: string; duration: string } {
  return { when: waitInWords(totalSeconds, locale), duration: durationInWords(totalSeconds, locale) };
}

/**
 * A sentence split around its wait, so a live countdown can sit in an element of its own that
 * screen readers do not re-announce on every tick (the sentence around it is announced once,
 * when it appears). Null when the sentence carries no wait.
 */
export function splitAtWait(
  text: string,
  totalSeconds: number,
  locale: Locale,
): { before: string; words: string; after: string } | null {
  const { when, duration } = waitValues(totalSeconds, locale);
  for (const words of [when, duration]) {
    const at = text.indexOf(words);
    if (at >= 0) return { before: text.slice(0, at), words, after: text.slice(at + words.length) };
  }
  return null;
}

/**
 * Whole seconds left until `until` (a Date.now() time), re-rendering as each second passes.
 * Read from the clock at render, so a wait set a moment ago starts at its full length.
 */
export function useSecondsLeft(until: number): number {
  const [, setTick] = useState(0);
  const left = Math.max(0, until - Date.now());
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setTick((tick) => tick + 1), left % 1000 || 1000);
    return () => clearTimeout(timer);
  });
  return Math.ceil(left / 1000);
}
