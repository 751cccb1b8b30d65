import type { Texts } from '../en.ts';

export const lifecycleDe: Texts['lifecycle'] = {
  sessionDialog: {
    confirm: 'Abmelden',
  },
};
