import { paths } from '@keycard/contract/paths';
import type { RouteObject } from '@keycard/web/router';
import { lazyPage } from '../../lib/lazy-page.ts';

/** MFA screens (issue 4): lazy chunks, so the login route stays small. */
export const mfaRoutes: RouteObject[] = [
  {
    path: paths.mfa,
    lazy: lazyPage(
      () => import('./mfa-page.tsx'),
      (m) => m.MfaPage,
    ),
  },
  {
    path: paths.mfaReset,
    lazy: lazyPage(
      () => import('./mfa-reset-page.tsx'),
      (m) => m.MfaResetPage,
    ),
  },
];
