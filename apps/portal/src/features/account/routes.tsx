import { paths } from '@keycard/contract/paths';
import type { RouteObject } from '@keycard/web/router';
import { lazyPage } from '../../lib/lazy-page.ts';

/** Activation, registration, reset, e-mail verification and expiry screens (issue 3), one chunk each. */
export const accountRoutes: RouteObject[] = [
  {
    path: paths.activate,
    lazy: lazyPage(
      () => import('./activation/activate-page.tsx'),
      (m) => m.ActivatePage,
    ),
  },
  {
    path: paths.activateSent,
    lazy: lazyPage(
      () => import('./activation/activate-sent-page.tsx'),
      (m) => m.ActivateSentPage,
    ),
  },
  {
    path: paths.register,
    lazy: lazyPage(
      () => import('./registration/register-page.tsx'),
      (m) => m.RegisterPage,
    ),
  },
  {
    path: paths.resetPassword,
    lazy: lazyPage(
      () => import('./reset/reset-request-page.tsx'),
      (m) => m.ResetRequestPage,
    ),
  },
  {
    path: paths.resetPasswordSent,
    lazy: lazyPage(
      () => import('./reset/reset-sent-page.tsx'),
      (m) => m.ResetSentPage,
    ),
  },
  {
    path: paths.resetPasswordUpdate,
    lazy: lazyPage(
      () => import('./reset/reset-update-page.tsx'),
      (m) => m.ResetUpdatePage,
    ),
  },
  {
    path: paths.verifyEmail,
    lazy: lazyPage(
      () => import('./verify-email/verify-email-page.tsx'),
      (m) => m.VerifyEmailPage,
    ),
  },
  {
    path: paths.activateExpired,
    lazy: lazyPage(
      () => import('./activation/activate-expired-page.tsx'),
      (m) => m.ActivateExpiredPage,
    ),
  },
  {
    path: paths.verifyExpired,
    lazy: lazyPage(
      () => import('./verify-email/verify-expired-page.tsx'),
      (m) => m.VerifyExpiredPage,
    ),
  },
  {
    path: paths.passwordExpired,
    lazy: lazyPage(
      () => import('./password-expiry/password-expired-page.tsx'),
      (m) => m.PasswordExpiredPage,
    ),
  },
  {
    path: paths.passwordWillExpire,
    lazy: lazyPage(
      () => import('./password-expiry/password-will-expire-page.tsx'),
      (m) => m.PasswordWillExpirePage,
    ),
  },
];
