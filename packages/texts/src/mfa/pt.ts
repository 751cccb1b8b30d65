import type { Texts } from '../en.ts';

export const mfaPt: Texts['mfa'] = {
  heading: 'Verificação em dois passos',
};
