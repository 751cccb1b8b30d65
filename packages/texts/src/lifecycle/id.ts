import type { Texts } from '../en.ts';

export const lifecycleId: Texts['lifecycle'] = {
  sessionDialog: {
    confirm: 'Keluar',
  },
};
