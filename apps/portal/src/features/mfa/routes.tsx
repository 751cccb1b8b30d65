import { paths } from '@keycard/contract/paths';
import { lazyPage } from '../../lib/lazy-page.ts';
import type { RouteObject } from '../../lib/router.tsx';

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
