import type { Texts } from '../en.ts';

export const mfaEs: Texts['mfa'] = {
  heading: 'Verificación en dos pasos',
};
