import {
  authenticateRequest,
  errorCodes,
  type LoginResponse,
  loginRequest,
  type UserIdentity,
} from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { findUserById } from '../accounts/user.repository.ts';
import type { Services } from '../http/context.ts';
import { sessionToken, setSessionCookie } from '../http/cookies.ts';
import { assertSameOrigin } from '../http/security.ts';
import { requireTenant } from '../http/tenant.ts';
import { parseInput } from '../http/validate.ts';
import { applyTrustedDevice } from '../mfa/mfa.service.ts';
import { createSession, revokeSession } from '../sessions/session.service.ts';
import { resolveSession } from '../sessions/session-identity.ts';
import { AppError } from '../shared/errors.ts';
import { redeemToken } from '../shared/one-time-token.ts';
import { passwordLogin } from './login.service.ts';

const loginErrors = {
  [errorCodes.invalidCredentials]: { status: 401, message: 'Invalid e-mail or password.' },
  [errorCodes.tooManyAttempts]: { status: 429, message: 'Too many attempts.' },
  [errorCodes.passwordLeaked]: {
    status: 403,
    message: 'This password appears in public leaks and must be changed.',
  },
} as const;

export async function loginRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, limiter, clock, config } = services;

  app.post('/api/login', async (request): Promise<LoginResponse> => {
    assertSameOrigin(request);
    const tenant = requireTenant(request);
    const input = parseInput(loginRequest, request.body);
    const outcome = await passwordLogin(
      { db, limiter, policy: config.login },
      tenant,
      { ...input, ip: request.ip },
      clock.now(),
    );
    if (!outcome.ok) {
      const { status, message } = loginErrors[outcome.code];
      throw new AppError(outcome.code, status, message);
    }
    return { code: outcome.code, state: input.state };
  });

  app.post('/api/authenticate', async (request, reply): Promise<UserIdentity> => {
    assertSameOrigin(request);
    const tenant = requireTenant(request);
    const input = parseInput(authenticateRequest, request.body);
    const now = clock.now();
    const invalid = new AppError(errorCodes.codeInvalid, 400, 'The sign-in code is invalid or has expired.');
    if (input.tenantCode !== tenant.code) throw invalid;
    const redeemed = await redeemToken(
      db,
      { tenantCode: tenant.code, purpose: 'LOGIN_CODE', token: input.code },
      now,
    );
    if (!redeemed.ok || !redeemed.userId) throw invalid;
    const user = await findUserById(db, tenant.code, redeemed.userId);
    if (user?.status !== 'active') throw invalid;

    // A fresh session on every login; any session the browser held before is revoked
    // (session fixation defence).
    const previous = sessionToken(request);
    if (previous) await revokeSession(db, tenant.code, previous);
    const { token, session } = await createSession(
      db,
      { tenantCode: tenant.code, userId: user.id, provider: 'keycard' },
      now,
    );
    // SPEC §9: on a device the user trusted within the period, MFA is not asked again.
    await applyTrustedDevice(db, tenant, session, input.userDeviceToken, now);
    setSessionCookie(reply, config, token);
    reply.header('cache-control', 'no-store');
    // The state (SPEC §4) comes from the same place every later request's does.
    const resolved = await resolveSession(db, tenant, token, now);
    if (!resolved) throw invalid;
    return resolved.identity;
  });
}
