import type { Texts } from '../en.ts';

export const lifecycleEs: Texts['lifecycle'] = {
  sessionDialog: {
    confirm: 'Cerrar sesión',
  },
};
