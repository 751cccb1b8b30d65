import { type CaptchaAction, lifecycleErrors } from '@keycard/contract';
import type { PageSources } from '../../platform/http/page-policy.ts';
import { type OutboundOptions, outboundFetch } from '../../platform/security/outbound.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { TenantContext } from './tenant.types.ts';

/** reCAPTCHA v3, the provider whose API the portal speaks, unless a tenant names another. */
export const defaultCaptchaScriptUrl = 'https://www.google.com/recaptcha/api.js';
export const defaultCaptchaVerifyUrl = 'https://www.google.com/recaptcha/api/siteverify';
/** reCAPTCHA v3 scores run from 0 (a bot) to 1 (a person); Google suggests 0.5 to start. */
export const defaultCaptchaMinScore = 0.5;
const verifyTimeoutMs = 5_000;

export interface CaptchaSettings {
  siteKey: string | null;
  secret: string | null;
  verifyUrl: string;
  scriptUrl: string;
  minScore: number;
}

/**
 * The tenant's captcha settings with their defaults. `scriptUrl` and `minScore` are optional
 * extras in the stored settings (beside siteKey, secret and verifyUrl), for a compatible
 * provider or a self-hosted test double.
 */
export function captchaSettingsOf(tenant: TenantContext): CaptchaSettings {
  const stored = tenant.settings.captcha as TenantContext['settings']['captcha'] & {
    scriptUrl?: unknown;
    minScore?: unknown;
  };
  return {
    siteKey: stored.siteKey || null,
    secret: stored.secret || null,
    verifyUrl: stored.verifyUrl || defaultCaptchaVerifyUrl,
    scriptUrl:
      typeof stored.scriptUrl === 'string' && stored.scriptUrl ? stored.scriptUrl : defaultCaptchaScriptUrl,
    minScore: typeof stored.minScore === 'number' ? stored.minScore : defaultCaptchaMinScore,
  };
}

interface SiteVerifyAnswer {
  success?: unknown;
  score?: unknown;
  action?: unknown;
}

/**
 * Verifies a captcha token server-side when the tenant has a secret (reCAPTCHA v3 siteverify:
 * POST secret and response as a form, JSON { success, score, action }). A missing token, a
 * failed or low-scored check, a token minted for another action, or a verifier that cannot be
 * reached all refuse the request (fail closed): with a secret set, the tenant asked for it.
 */
export async function verifyCaptcha(
  tenant: TenantContext,
  token: string | undefined,
  action: CaptchaAction,
  remoteIp: string,
  /** Whether the verifier may be a private address (ALLOW_PRIVATE_OUTBOUND); security/outbound.ts. */
  outbound: OutboundOptions,
): Promise<void> {
  const settings = captchaSettingsOf(tenant);
  if (!settings.secret) return;
  const refuse = () => new AppError(lifecycleErrors.captchaFailed);
  if (!token) throw refuse();
  let answer: SiteVerifyAnswer;
  try {
    // The secret goes only to an address outside the server's network (SSRF).
    const response = await outboundFetch(
      settings.verifyUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          secret: settings.secret,
          response: token,
          remoteip: remoteIp,
        }).toString(),
        signal: AbortSignal.timeout(verifyTimeoutMs),
      },
      { ...outbound, maxBytes: 64 * 1024 },
    );
    if (!response.ok) throw refuse();
    answer = (await response.json()) as SiteVerifyAnswer;
  } catch {
    throw refuse();
  }
  if (answer.success !== true) throw refuse();
  if (typeof answer.action === 'string' && answer.action !== action) throw refuse();
  if (typeof answer.score === 'number' && answer.score < settings.minScore) throw refuse();
}

/**
 * What the tenant's captcha adds to its portal pages' policy (page-policy.ts), or null when it
 * has none: its script, the calls it makes and its frames, the only frames those pages need.
 * Google's reCAPTCHA also loads from www.gstatic.com.
 */
export function captchaPageSources(captcha: CaptchaSettings): PageSources | null {
  if (!captcha.siteKey) return null;
  let origin: string;
  try {
    origin = new URL(captcha.scriptUrl).origin;
  } catch {
    return null;
  }
  const sources = [origin];
  if (origin === 'https://www.google.com') sources.push('https://www.gstatic.com');
  return {
    add: { 'script-src': sources, 'connect-src': sources, 'frame-src': sources },
    alone: ['frame-src'],
  };
}
