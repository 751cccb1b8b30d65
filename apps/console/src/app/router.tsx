import { createRouter as createHistoryRouter, type RouteObject, type Router } from '@keycard/web/router';
import { consolePaths } from '../lib/paths.ts';
import { Layout, NotFoundPage, RouteErrorPage } from './layout.tsx';

/** Each page is a chunk of its own, loaded on first use. */
const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        path: consolePaths.home,
        lazy: () =>
          import('../features/tenants/tenant-list-page.tsx').then((m) => ({ Component: m.TenantListPage })),
      },
      {
        path: consolePaths.newTenant,
        lazy: () =>
          import('../features/tenants/tenant-create-page.tsx').then((m) => ({
            Component: m.TenantCreatePage,
          })),
      },
      {
        path: consolePaths.tenant,
        lazy: () => import('./tenant-page.tsx').then((m) => ({ Component: m.TenantPage })),
      },
      {
        path: consolePaths.audit,
        lazy: () => import('../features/audit/audit-page.tsx').then((m) => ({ Component: m.AuditPage })),
      },
      {
        path: consolePaths.operators,
        lazy: () =>
          import('../features/operators/operators-page.tsx').then((m) => ({ Component: m.OperatorsPage })),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createRouter(): Router {
  return createHistoryRouter(routes);
}
