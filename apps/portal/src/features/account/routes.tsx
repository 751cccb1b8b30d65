import type { RouteObject } from 'react-router';

/** Activation, registration, reset, e-mail verification, expiry screens (issue 3). */
export const accountRoutes: RouteObject[] = [];
