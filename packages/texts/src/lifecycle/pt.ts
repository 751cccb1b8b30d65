import type { Texts } from '../en.ts';

export const lifecyclePt: Texts['lifecycle'] = {
  sessionDialog: {
    confirm: 'Terminar sessão',
  },
};
