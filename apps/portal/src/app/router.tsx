import { paths } from '@keycard/contract/paths';
import {
  createRouter as createHistoryRouter,
  Navigate,
  Outlet,
  type RouteObject,
  useLocation,
} from '@keycard/web/router';
import { accountRoutes } from '../features/account/routes.tsx';
import { NotFoundPage, RouteErrorPage, UnknownErrorPage } from '../features/errors/error-pages.tsx';
import { LoginPage, loadPasswordStep } from '../features/login/login-page.tsx';
import { MessengerLauncher } from '../features/messenger/messenger-launcher.tsx';
import { mfaRoutes } from '../features/mfa/routes.tsx';
import { lazyPage } from '../lib/lazy-page.ts';
import { partnerSsoRoute } from '../lib/route-for-state.ts';

function RootRedirect() {
  const { search } = useLocation();
  return <Navigate to={`${paths.login}${search}`} replace />;
}

export const routes: RouteObject[] = [
  // The console's theme preview: real screens, no messenger launcher, nothing that acts.
  {
    path: paths.preview,
    errorElement: <RouteErrorPage />,
    lazy: lazyPage(
      () =>
        Promise.all([
          import('../features/preview/preview-page.tsx'),
          import('../features/account/reset/reset-request-page.tsx'),
          import('../features/mfa/verify-screen.tsx'),
          import('../features/mfa/mfa.css'),
          import('./theme.tsx'),
          loadPasswordStep(),
          import('../features/errors/account-disabled-page.tsx'),
        ]),
      ([preview, reset, mfa, , theme, password, disabled]) => {
        preview.installPreview({
          LoginPage,
          LoginPasswordPage: password.LoginPasswordPage,
          ResetRequestPage: reset.ResetRequestPage,
          VerifyScreen: mfa.VerifyScreen,
          AccountDisabledPage: disabled.AccountDisabledPage,
          NotFoundPage,
          applyBranding: theme.applyBranding,
        });
        return preview.PreviewPage;
      },
    ),
  },
  {
    element: (
      <>
        <Outlet />
        <MessengerLauncher />
      </>
    ),
    errorElement: <RouteErrorPage />,
    children: [
      { path: paths.root, element: <RootRedirect /> },
      { path: paths.login, element: <LoginPage /> },
      {
        path: paths.loginPassword,
        lazy: lazyPage(loadPasswordStep, (m) => m.LoginPasswordPage, { coreTexts: true }),
      },
      {
        path: paths.authenticate,
        lazy: lazyPage(
          () => import('../features/authenticate/authenticate-page.tsx'),
          (m) => m.AuthenticatePage,
        ),
      },
      {
        path: paths.authenticated,
        lazy: lazyPage(
          () => import('../features/authenticated/authenticated-page.tsx'),
          (m) => m.AuthenticatedPage,
        ),
      },
      {
        path: paths.authorize,
        lazy: lazyPage(
          () => import('../features/authorize/authorize-page.tsx'),
          (m) => m.AuthorizePage,
        ),
      },
      {
        path: partnerSsoRoute,
        lazy: lazyPage(
          () => import('../features/partner-sso/components/partner-sso-page.tsx'),
          (m) => m.PartnerSsoPage,
        ),
      },
      {
        path: paths.logout,
        lazy: lazyPage(
          () => import('../features/logout/logout-page.tsx'),
          (m) => m.LogoutPage,
        ),
      },
      {
        path: paths.providerPage,
        lazy: lazyPage(
          () => import('../features/errors/provider-page.tsx'),
          (m) => m.ProviderPage,
        ),
      },
      {
        path: paths.account,
        lazy: lazyPage(
          () => import('../features/account-page/account-page.tsx'),
          (m) => m.AccountPage,
        ),
      },
      {
        path: paths.signedIn,
        lazy: lazyPage(
          () => import('../features/authenticated/signed-in-page.tsx'),
          (m) => m.SignedInPage,
        ),
      },
      { path: paths.error, element: <UnknownErrorPage /> },
      {
        path: paths.accountDisabled,
        lazy: lazyPage(
          () => import('../features/errors/account-disabled-page.tsx'),
          (m) => m.AccountDisabledPage,
          { coreTexts: true },
        ),
      },
      ...accountRoutes,
      ...mfaRoutes,
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createHistoryRouter(routes);
}
