import type { Texts } from '../en.ts';

export const lifecycleFr: Texts['lifecycle'] = {
  sessionDialog: {
    confirm: 'Se déconnecter',
  },
};
