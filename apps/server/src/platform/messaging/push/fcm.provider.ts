import { importPKCS8, SignJWT } from 'jose';
import { type Clock, systemClock } from '../../shared/clock.ts';
import {
  type PushFailureKind,
  type PushNotification,
  type PushProvider,
  parseRetryAfter,
  pushDeliveryError,
  pushFailureKinds,
} from './push-provider.ts';

export interface FcmSettings {
  projectId: string;
  /** From the service account's JSON key file. */
  clientEmail: string;
  /** PKCS#8 PEM (RSA) from the key file. */
  privateKey: string;
  privateKeyId?: string | undefined;
  /** The key file's token_uri (https://oauth2.googleapis.com/token). */
  tokenUri: string;
  /** https://fcm.googleapis.com in production; tests point it at a local stand-in. */
  baseUrl: string;
  /** Per-request time limit. */
  timeoutMs?: number;
}

/** The OAuth 2.0 scope FCM's HTTP v1 API asks for. */
export const fcmScope = 'https://www.googleapis.com/auth/firebase.messaging';
/** A cached access token is replaced this long before it expires, so none is sent stale. */
const refreshMarginMs = 5 * 60_000;

/**
 * FCM's documented error codes (google.firebase.fcm.v1.FcmError, reference/fcm/rest/v1/ErrorCode)
 * and what each means for a retry.
 */
const knownErrors: Record<string, { kind: PushFailureKind; retryable: boolean }> = {
  UNREGISTERED: { kind: pushFailureKinds.unregistered, retryable: false }, // 404: token no longer valid
  SENDER_ID_MISMATCH: { kind: pushFailureKinds.badToken, retryable: false }, // 403: another project's token
  INVALID_ARGUMENT: { kind: pushFailureKinds.invalidRequest, retryable: false }, // 400
  THIRD_PARTY_AUTH_ERROR: { kind: pushFailureKinds.authFailed, retryable: false }, // 401: APNs/web push credentials
  QUOTA_EXCEEDED: { kind: pushFailureKinds.rateLimited, retryable: true }, // 429
  UNAVAILABLE: { kind: pushFailureKinds.unavailable, retryable: true }, // 503
  INTERNAL: { kind: pushFailureKinds.unavailable, retryable: true }, // 500
};

interface GoogleErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: { '@type'?: string; errorCode?: string }[];
  };
}

interface CachedToken {
  value: string;
  expiresAt: number;
}

/**
 * Firebase Cloud Messaging HTTP v1. An OAuth 2.0 access token comes from the service
 * account (RFC 7523 JWT bearer grant, RS256, to the key file's token_uri) and is reused until
 * shortly before it expires; concurrent sends share one token request. A 401 drops the token
 * and tries once more with a new one.
 */
export function createFcmProvider(settings: FcmSettings, clock: Clock = systemClock): PushProvider {
  const sendUrl = `${settings.baseUrl.replace(/\/$/, '')}/v1/projects/${encodeURIComponent(settings.projectId)}/messages:send`;
  const timeoutMs = settings.timeoutMs ?? 10_000;
  let signingKey: ReturnType<typeof importPKCS8> | undefined;
  let cached: CachedToken | undefined;
  let inFlight: Promise<CachedToken> | undefined;

  async function requestToken(): Promise<CachedToken> {
    signingKey ??= importPKCS8(settings.privateKey, 'RS256');
    const now = Math.floor(clock.now() / 1000);
    const assertion = await new SignJWT({ scope: fcmScope })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        ...(settings.privateKeyId ? { kid: settings.privateKeyId } : {}),
      })
      .setIssuer(settings.clientEmail)
      .setAudience(settings.tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(await signingKey);
    let response: Response;
    try {
      response = await fetch(settings.tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion,
        }).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw pushDeliveryError(
        pushFailureKinds.unavailable,
        'token',
        true,
        `fcm token endpoint unreachable: ${(error as Error).message}`,
      );
    }
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: string;
      expires_in?: number;
      error?: string;
    };
    if (!response.ok || typeof body.access_token !== 'string') {
      const retryable = response.status >= 500 || response.status === 429;
      throw pushDeliveryError(
        retryable ? pushFailureKinds.unavailable : pushFailureKinds.authFailed,
        body.error ?? response.status,
        retryable,
        `fcm token endpoint ${response.status} ${body.error ?? ''}`.trim(),
      );
    }
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    return { value: body.access_token, expiresAt: clock.now() + lifetimeMs };
  }

  async function accessToken(): Promise<string> {
    if (cached && clock.now() < cached.expiresAt - refreshMarginMs) return cached.value;
    inFlight ??= requestToken().finally(() => {
      inFlight = undefined;
    });
    cached = await inFlight;
    return cached.value;
  }

  async function post(notification: PushNotification, token: string): Promise<Response> {
    const ttlSeconds = Math.max(0, Math.ceil((notification.expiresAt - clock.now()) / 1000));
    try {
      return await fetch(sendUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json; charset=utf-8',
          accept: 'application/json',
        },
        body: JSON.stringify({
          message: {
            token: notification.token,
            data: notification.data,
            notification: { title: notification.title, body: notification.body },
            // HIGH wakes the device at once (an approval is waited for); the ttl makes FCM drop
            // it once the challenge is over rather than deliver it late.
            android: {
              priority: 'HIGH',
              ttl: `${ttlSeconds}s`,
              collapse_key: notification.collapseKey,
            },
          },
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw pushDeliveryError(
        pushFailureKinds.unavailable,
        null,
        true,
        `fcm unreachable: ${(error as Error).message}`,
      );
    }
  }

  return {
    name: 'fcm',
    async send(notification) {
      let token = await accessToken();
      let response = await post(notification, token);
      if (response.status === 401) {
        await response.body?.cancel();
        // Revoked or expired early: drop it (unless a parallel send already replaced it).
        if (cached?.value === token) cached = undefined;
        token = await accessToken();
        response = await post(notification, token);
      }
      if (response.ok) {
        await response.body?.cancel();
        return;
      }
      const body = (await response.json().catch(() => ({}))) as GoogleErrorBody;
      const fcmCode = body.error?.details?.find((detail) =>
        detail['@type']?.endsWith('.FcmError'),
      )?.errorCode;
      const code = fcmCode ?? body.error?.status ?? null;
      const detail = `fcm ${response.status} ${code ?? ''} ${body.error?.message ?? ''}`.trim();
      // FCM sends Retry-After with 429 and 503: retrying sooner only prolongs the throttling.
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), clock.now());
      const known = code === null ? undefined : knownErrors[code];
      if (known) throw pushDeliveryError(known.kind, code, known.retryable, detail, retryAfterMs);
      if (response.status >= 500)
        throw pushDeliveryError(
          pushFailureKinds.unavailable,
          code ?? response.status,
          true,
          detail,
          retryAfterMs,
        );
      if (response.status === 429)
        throw pushDeliveryError(pushFailureKinds.rateLimited, code ?? 429, true, detail, retryAfterMs);
      if (response.status === 401 || response.status === 403) {
        throw pushDeliveryError(pushFailureKinds.authFailed, code ?? response.status, false, detail);
      }
      throw pushDeliveryError(pushFailureKinds.providerError, code ?? response.status, false, detail);
    },
    async close() {},
  };
}
