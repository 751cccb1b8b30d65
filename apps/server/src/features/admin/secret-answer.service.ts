import { adminErrors, type SecretQuestion, secretQuestions } from '@keycard/contract';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { limitKeys } from '../../platform/security/limit-keys.ts';
import type { LimitRule } from '../../platform/security/rate-limiter.ts';
import { AppError, retryAfter } from '../../platform/shared/errors.ts';
import { normalizeSecretAnswer, verifyPassword } from '../accounts/index.ts';
import type { AdminDeps } from './admin.deps.ts';
import { tenantContext, userIn } from './users.service.ts';

/**
 * The help desk's use of the secret question every account sets at activation (SPEC §3,
 * issue 19): the console shows a caller's question and checks the answer they speak. The
 * stored answer is a hash and never leaves the server; it is checked as activation stored it
 * (normalised, argon2id). Each check is audited, with its result but never the answer.
 *
 * A few answers are enough for a person who knows theirs, and a guesser gets no more: checks
 * of one account by one operator are counted before the hash is checked (invariant 7), five
 * per quarter hour, on every instance (the attempt store); a match gives its count back.
 */
export const secretAnswerRule: LimitRule = { limit: 5, windowMs: 15 * 60_000, lockMs: 0 };

function questionOf(stored: string | null): SecretQuestion | null {
  return secretQuestions.find((question) => question === stored) ?? null;
}

export async function getSecretQuestion(deps: AdminDeps, code: string, userId: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  return { question: user.secret_answer_hash ? questionOf(user.secret_question) : null };
}

export async function checkSecretAnswer(deps: AdminDeps, code: string, userId: string, answer: string) {
  const tenant = await tenantContext(deps, code);
  const user = await userIn(deps, tenant, userId);
  const hash = user.secret_answer_hash;
  if (!hash || !questionOf(user.secret_question)) return { result: 'not-set' as const };
  const operator = `${deps.actor.kind}:${deps.actor.id ?? '-'}`;
  const key = limitKeys.adminSecretAnswer(tenant.code, user.id, operator);
  const reservation = await deps.limiter.reserve(key, secretAnswerRule, deps.now);
  if (!reservation.allowed) {
    throw new AppError(adminErrors.rateLimited, { fields: retryAfter(reservation.retryAfterMs) });
  }
  const matches = await verifyPassword(hash, normalizeSecretAnswer(answer));
  if (matches) await deps.limiter.release(key, secretAnswerRule, deps.now);
  const result = matches ? ('match' as const) : ('mismatch' as const);
  await recordAudit(
    deps.db,
    deps.actor,
    {
      tenant: tenant.code,
      action: 'user.check_secret_answer',
      target: { kind: 'user', id: user.id },
      after: { result },
    },
    deps.now,
  );
  return { result };
}
