import {
  apiPaths,
  errorCodes,
  type LoginFailureFields,
  type LoginLimitFields,
  loginRequest,
  loginResponse,
} from '@keycard/contract';
import { passwordLogin } from '../../features/login/index.ts';
import { deviceToken, knownBrowserToken } from '../../features/sessions/index.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import { defineRoute } from './api-route.ts';

/** The password step (ARCHITECTURE "The login, end to end", 2): HTTP glue only. */
export const loginRoutes = [
  defineRoute({
    method: 'POST',
    path: apiPaths.login,
    summary: 'The password step: answers a single-use code for /api/authenticate',
    auth: 'none',
    origin: 'same-origin',
    tenant: 'required',
    body: loginRequest,
    responses: { 200: loginResponse },
    errors: [errorCodes.invalidCredentials, errorCodes.tooManyAttempts, errorCodes.passwordLeaked],
    handler: async ({ deps, request, tenant, body }) => {
      const { db, limiter, clock, config } = deps;
      const outcome = await passwordLogin(
        { db, limiter, policy: config.login, clock, config },
        tenant,
        {
          ...body,
          userDeviceToken: deviceToken(request, body.userDeviceToken),
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          knownBrowserToken: knownBrowserToken(request),
        },
        clock.now(),
      );
      if (!outcome.ok) {
        // Which limit refused, so the portal can say "from your network" or "this account".
        // Or, for a wrong password near the lockout, how many attempts are left before it.
        const fields: LoginLimitFields | LoginFailureFields | undefined =
          outcome.code === errorCodes.tooManyAttempts
            ? { limit: outcome.limit, ...limitWait(outcome.retryAfterMs) }
            : outcome.code === errorCodes.invalidCredentials && outcome.attemptsLeft !== undefined
              ? { attemptsLeft: String(outcome.attemptsLeft) }
              : undefined;
        throw new AppError(outcome.code, { fields });
      }
      return { code: outcome.code, state: body.state };
    },
  }),
];

function limitWait(ms: number): { retryAfterSeconds: string } {
  return { retryAfterSeconds: retryAfter(ms).retryAfterSeconds ?? '1' };
}
