import type { Texts } from '../en.ts';

export const lifecycleIt: Texts['lifecycle'] = {
  sessionDialog: {
    confirm: 'Esci',
  },
};
