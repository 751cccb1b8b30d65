import type { Texts } from '../en.ts';

export const mfaIt: Texts['mfa'] = {
  heading: 'Verifica in due passaggi',
};
