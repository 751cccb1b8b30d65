import type { Texts } from '../en.ts';

export const lifecycleTh: Texts['lifecycle'] = {
  sessionDialog: {
    confirm: 'ออกจากระบบ',
  },
};
