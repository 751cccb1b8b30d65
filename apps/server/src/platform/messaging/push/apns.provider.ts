import http2 from 'node:http2';
import { importPKCS8, SignJWT } from 'jose';
import { type Clock, systemClock } from '../../shared/clock.ts';
import {
  type PushFailureKind,
  type PushNotification,
  type PushProvider,
  pushDeliveryError,
  pushFailureKinds,
} from './push-provider.ts';

export interface ApnsSettings {
  /** The 10-character Team ID of the Apple developer account. */
  teamId: string;
  /** The 10-character id of the APNs signing key. */
  keyId: string;
  /** The .p8 key: PKCS#8 PEM, EC P-256. */
  privateKey: string;
  /** The app's bundle id: the apns-topic of every push. */
  bundleId: string;
  /** https://api.push.apple.com (or api.sandbox.push.apple.com); tests use an h2c stand-in. */
  baseUrl: string;
  /** Per-request time limit. */
  timeoutMs?: number;
}

/**
 * Apple refuses provider tokens older than an hour and answers TooManyProviderTokenUpdates
 * to one replaced more often than every 20 minutes: 50 minutes sits between.
 */
export const apnsProviderTokenLifetimeMs = 50 * 60_000;
/** An idle connection is closed after this long (Apple keeps them open for hours; we need not). */
const idleTimeoutMs = 5 * 60_000;

/** APNs' documented `reason` values (Handling notification responses from APNs). */
const knownReasons: Record<string, { kind: PushFailureKind; retryable: boolean }> = {
  // 410: the device no longer takes this app's pushes.
  Unregistered: { kind: pushFailureKinds.unregistered, retryable: false },
  ExpiredToken: { kind: pushFailureKinds.unregistered, retryable: false },
  // 400: not a token of this app or of this environment (sandbox vs production).
  BadDeviceToken: { kind: pushFailureKinds.badToken, retryable: false },
  DeviceTokenNotForTopic: { kind: pushFailureKinds.badToken, retryable: false },
  MissingDeviceToken: { kind: pushFailureKinds.badToken, retryable: false },
  // 400/404/405/413: the request itself is wrong; sending it again changes nothing.
  BadCollapseId: { kind: pushFailureKinds.invalidRequest, retryable: false },
  BadExpirationDate: { kind: pushFailureKinds.invalidRequest, retryable: false },
  BadMessageId: { kind: pushFailureKinds.invalidRequest, retryable: false },
  BadPriority: { kind: pushFailureKinds.invalidRequest, retryable: false },
  BadTopic: { kind: pushFailureKinds.invalidRequest, retryable: false },
  DuplicateHeaders: { kind: pushFailureKinds.invalidRequest, retryable: false },
  InvalidPushType: { kind: pushFailureKinds.invalidRequest, retryable: false },
  MissingTopic: { kind: pushFailureKinds.invalidRequest, retryable: false },
  PayloadEmpty: { kind: pushFailureKinds.invalidRequest, retryable: false },
  TopicDisallowed: { kind: pushFailureKinds.invalidRequest, retryable: false },
  BadPath: { kind: pushFailureKinds.invalidRequest, retryable: false },
  MethodNotAllowed: { kind: pushFailureKinds.invalidRequest, retryable: false },
  PayloadTooLarge: { kind: pushFailureKinds.invalidRequest, retryable: false },
  // 403: our key, team or environment is refused: the configuration needs fixing.
  ExpiredProviderToken: { kind: pushFailureKinds.authFailed, retryable: false },
  InvalidProviderToken: { kind: pushFailureKinds.authFailed, retryable: false },
  MissingProviderToken: { kind: pushFailureKinds.authFailed, retryable: false },
  BadCertificate: { kind: pushFailureKinds.authFailed, retryable: false },
  BadCertificateEnvironment: { kind: pushFailureKinds.authFailed, retryable: false },
  Forbidden: { kind: pushFailureKinds.authFailed, retryable: false },
  // 429, 500, 503: try again later.
  TooManyRequests: { kind: pushFailureKinds.rateLimited, retryable: true },
  TooManyProviderTokenUpdates: { kind: pushFailureKinds.rateLimited, retryable: true },
  InternalServerError: { kind: pushFailureKinds.unavailable, retryable: true },
  ServiceUnavailable: { kind: pushFailureKinds.unavailable, retryable: true },
  Shutdown: { kind: pushFailureKinds.unavailable, retryable: true },
  IdleTimeout: { kind: pushFailureKinds.unavailable, retryable: true },
};

const canonicalUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface ApnsAnswer {
  status: number;
  body: string;
}

/**
 * APNs provider API over HTTP/2 with token-based authentication: an ES256 provider token
 * (header kid = key id, claims iss = team id and iat), shared by every request and replaced
 * after 50 minutes, or at once when APNs answers ExpiredProviderToken (then the push is tried
 * once more). One HTTP/2 connection is kept and reused, as Apple asks.
 */
export function createApnsProvider(settings: ApnsSettings, clock: Clock = systemClock): PushProvider {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  let signingKey: ReturnType<typeof importPKCS8> | undefined;
  let providerToken: { value: string; issuedAt: number } | undefined;
  let signing: Promise<{ value: string; issuedAt: number }> | undefined;
  let session: http2.ClientHttp2Session | undefined;

  async function signProviderToken(): Promise<{ value: string; issuedAt: number }> {
    signingKey ??= importPKCS8(settings.privateKey, 'ES256');
    const issuedAt = clock.now();
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: settings.keyId })
      .setIssuer(settings.teamId)
      .setIssuedAt(Math.floor(issuedAt / 1000))
      .sign(await signingKey);
    return { value, issuedAt };
  }

  /** Concurrent sends share one token: each new one counts against Apple's update limit. */
  async function bearer(): Promise<string> {
    if (providerToken && clock.now() - providerToken.issuedAt < apnsProviderTokenLifetimeMs) {
      return providerToken.value;
    }
    signing ??= signProviderToken().finally(() => {
      signing = undefined;
    });
    providerToken = await signing;
    return providerToken.value;
  }

  function connection(): http2.ClientHttp2Session {
    if (session && !session.closed && !session.destroyed) return session;
    const opened = http2.connect(settings.baseUrl);
    // A failed connection fails its streams, which report it; the session is then replaced.
    opened.on('error', () => undefined);
    const forget = () => {
      if (session === opened) session = undefined;
    };
    opened.on('close', forget);
    opened.on('goaway', forget);
    opened.setTimeout(idleTimeoutMs, () => opened.close());
    opened.unref();
    session = opened;
    return opened;
  }

  function request(notification: PushNotification, token: string): Promise<ApnsAnswer> {
    const headers: http2.OutgoingHttpHeaders = {
      ':method': 'POST',
      ':path': `/3/device/${encodeURIComponent(notification.token)}`,
      authorization: `bearer ${token}`,
      'apns-topic': settings.bundleId,
      'apns-push-type': 'alert',
      'apns-priority': '10',
      // APNs stores an undeliverable push until then, and never delivers it after.
      'apns-expiration': String(Math.floor(notification.expiresAt / 1000)),
      'content-type': 'application/json',
    };
    if (canonicalUuid.test(notification.reference)) headers['apns-id'] = notification.reference;
    if (Buffer.byteLength(notification.collapseKey) <= 64)
      headers['apns-collapse-id'] = notification.collapseKey;
    // aps last, so no data key can replace it.
    const payload = JSON.stringify({
      ...notification.data,
      aps: { alert: { title: notification.title, body: notification.body }, sound: 'default' },
    });
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (detail: string) => {
        if (settled) return;
        settled = true;
        reject(pushDeliveryError(pushFailureKinds.unavailable, null, true, `apns unreachable: ${detail}`));
      };
      let stream: http2.ClientHttp2Stream;
      let used: http2.ClientHttp2Session;
      try {
        used = connection();
        stream = used.request(headers);
      } catch (error) {
        fail((error as Error).message);
        return;
      }
      let status = 0;
      let body = '';
      stream.setEncoding('utf8');
      stream.on('response', (responseHeaders) => {
        status = Number(responseHeaders[':status']);
      });
      stream.on('data', (chunk: string) => {
        body += chunk;
      });
      stream.on('end', () => {
        if (settled) return;
        if (status === 0) return fail('no response');
        settled = true;
        resolve({ status, body });
      });
      stream.on('error', (error) => fail(error.message));
      stream.on('close', () => fail('stream closed'));
      stream.setTimeout(timeoutMs, () => {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        // A connection that never finished its HTTP/2 handshake would hold every later push.
        if (used.connecting || used.pendingSettingsAck) used.destroy();
        fail('timed out');
      });
      stream.end(payload);
    });
  }

  return {
    name: 'apns',
    async send(notification) {
      let token = await bearer();
      let answer = await request(notification, token);
      if (answer.status === 403 && reasonOf(answer) === 'ExpiredProviderToken') {
        // Replace it unless a parallel send already did, then try once more.
        if (providerToken?.value === token) providerToken = undefined;
        token = await bearer();
        answer = await request(notification, token);
      }
      if (answer.status === 200) return;
      const reason = reasonOf(answer);
      const detail = `apns ${answer.status} ${reason ?? ''}`.trim();
      const known = reason === null ? undefined : knownReasons[reason];
      if (known) throw pushDeliveryError(known.kind, reason, known.retryable, detail);
      const code = reason ?? answer.status;
      if (answer.status >= 500) throw pushDeliveryError(pushFailureKinds.unavailable, code, true, detail);
      if (answer.status === 429) throw pushDeliveryError(pushFailureKinds.rateLimited, code, true, detail);
      if (answer.status === 410) throw pushDeliveryError(pushFailureKinds.unregistered, code, false, detail);
      if (answer.status === 403) throw pushDeliveryError(pushFailureKinds.authFailed, code, false, detail);
      throw pushDeliveryError(pushFailureKinds.providerError, code, false, detail);
    },
    async close() {
      const open = session;
      session = undefined;
      if (!open || open.closed) return;
      await new Promise<void>((resolve) => open.close(() => resolve()));
    },
  };
}

function reasonOf(answer: ApnsAnswer): string | null {
  try {
    const reason = (JSON.parse(answer.body) as { reason?: unknown }).reason;
    return typeof reason === 'string' ? reason : null;
  } catch {
    return null;
  }
}
