import type { Texts } from '../en.ts';

export const mfaId: Texts['mfa'] = {
  heading: 'Verifikasi dua langkah',
};
