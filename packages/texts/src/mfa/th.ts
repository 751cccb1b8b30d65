import type { Texts } from '../en.ts';

export const mfaTh: Texts['mfa'] = {
  heading: 'การยืนยันสองขั้นตอน',
};
