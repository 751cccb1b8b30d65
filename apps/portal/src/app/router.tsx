import { paths } from '@keycard/contract/paths';
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject, useLocation } from 'react-router';
import { accountRoutes } from '../features/account/routes.tsx';
import { AccountDisabledPage, NotFoundPage, UnknownErrorPage } from '../features/errors/error-pages.tsx';
import { LoginPage } from '../features/login/login-page.tsx';
import { mfaRoutes } from '../features/mfa/routes.tsx';
import { partnerSsoRoute } from '../lib/route-for-state.ts';

// SPEC §9: a lazily loaded part that has not arrived in 120 s has failed to load.
const lazyLoadTimeoutMs = 120_000;

export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('load-failed')), lazyLoadTimeoutMs);
    });
    try {
      const module = await Promise.race([load(), timeout]);
      return { Component: pick(module) };
    } finally {
      clearTimeout(timer);
    }
  };
}

function RootRedirect() {
  const { search } = useLocation();
  return <Navigate to={`${paths.login}${search}`} replace />;
}

export const routes: RouteObject[] = [
  {
    element: <Outlet />,
    errorElement: <UnknownErrorPage />,
    children: [
      { path: paths.root, element: <RootRedirect /> },
      { path: '/login/:stage?', element: <LoginPage /> },
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
      { path: paths.error, element: <UnknownErrorPage /> },
      { path: paths.accountDisabled, element: <AccountDisabledPage /> },
      ...accountRoutes,
      ...mfaRoutes,
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
