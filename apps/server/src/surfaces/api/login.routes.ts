import {
  apiPaths,
  errorCodes,
  type LoginLimitFields,
  type LoginResponse,
  loginRequest,
  loginResponse,
} from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { passwordLogin } from '../../features/login/login.service.ts';
import { answers } from '../../platform/http/contract.ts';
import { deviceToken, knownBrowserToken } from '../../platform/http/cookies.ts';
import { assertSameOrigin } from '../../platform/http/security.ts';
import { requireTenant } from '../../platform/http/tenant.ts';
import { parseInput } from '../../platform/http/validate.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';

/** The password step (ARCHITECTURE "The login, end to end", 2): HTTP glue only. */
export async function loginRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, limiter, clock, config } = services;

  app.post(apiPaths.login, answers(loginResponse), async (request): Promise<LoginResponse> => {
    assertSameOrigin(request, config);
    const tenant = requireTenant(request);
    const input = parseInput(loginRequest, request.body);
    const outcome = await passwordLogin(
      { db, limiter, policy: config.login, clock },
      tenant,
      {
        ...input,
        userDeviceToken: deviceToken(request, input.userDeviceToken),
        ip: request.ip,
        knownBrowserToken: knownBrowserToken(request),
      },
      clock.now(),
    );
    if (!outcome.ok) {
      // Which limit refused, so the portal can say "from your network" or "this account".
      const fields: LoginLimitFields | undefined =
        outcome.code === errorCodes.tooManyAttempts
          ? {
              limit: outcome.limit,
              retryAfterSeconds: retryAfter(outcome.retryAfterMs).retryAfterSeconds as string,
            }
          : undefined;
      throw new AppError(outcome.code, { fields });
    }
    return { code: outcome.code, state: input.state };
  });
}
