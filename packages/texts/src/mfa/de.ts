import type { Texts } from '../en.ts';

export const mfaDe: Texts['mfa'] = {
  heading: 'Bestätigung in zwei Schritten',
};
