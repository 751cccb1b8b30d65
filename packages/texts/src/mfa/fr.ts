import type { Texts } from '../en.ts';

export const mfaFr: Texts['mfa'] = {
  heading: 'Validation en deux étapes',
};
