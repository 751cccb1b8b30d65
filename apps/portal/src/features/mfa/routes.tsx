import type { RouteObject } from 'react-router';

/** MFA screens (issue 4). */
export const mfaRoutes: RouteObject[] = [];
