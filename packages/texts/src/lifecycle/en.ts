export const lifecycleEn = {
  sessionDialog: {
    confirm: 'Log out',
  },
} as const;
