import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import type { Clock } from '../../shared/clock.ts';

/**
 * A local stand-in for the APNs provider API, for tests only: HTTP/2 without TLS (h2c), so
 * no certificate is needed and the adapter is pointed at it with an http:// base URL. It
 * checks each request the way Apple documents it — POST /3/device/<hex device token>;
 * `authorization: bearer <JWT>` signed ES256 with the team's key, header kid = key id,
 * claims iss = team id and iat, no older than an hour; apns-topic = the bundle id;
 * apns-push-type alert; apns-priority 10 or 5; apns-expiration in epoch seconds; apns-id a
 * canonical UUID; apns-collapse-id ≤ 64 bytes; a JSON payload ≤ 4096 bytes with aps.alert —
 * and answers as APNs does: 200 with apns-id, or a status with `{ reason }`.
 */
export interface ApnsRequest {
  deviceToken: string;
  headers: Record<string, string>;
  payload: Record<string, unknown>;
  /** The provider token's iat (epoch seconds). */
  providerTokenIat: number;
  providerToken: string;
}

export interface ApnsStubAnswer {
  status: number;
  reason: string;
}

export interface ApnsStub {
  url: string;
  teamId: string;
  keyId: string;
  bundleId: string;
  /** The .p8 key as Apple's developer portal hands it out (PKCS#8 PEM, P-256). */
  privateKeyPem: string;
  requests: ApnsRequest[];
  /** Requests that broke the documented format (a test expects none). */
  problems: string[];
  /** Per device token: what APNs answers. */
  answers: Map<string, ApnsStubAnswer>;
  /** Reset the stream for these device tokens (a network failure). */
  resetFor: Set<string>;
  /** Provider tokens APNs treats as expired from now on (ExpiredProviderToken). */
  expireProviderTokens(): void;
  /** Ends every open connection the way APNs does: a GOAWAY frame, then close. */
  dropConnections(): Promise<void>;
  /** How many HTTP/2 connections were opened. */
  connections: number;
  close(): Promise<void>;
}

/** APNs' documented failures used by the tests. */
export const apnsErrors = {
  badDeviceToken: { status: 400, reason: 'BadDeviceToken' },
  unregistered: { status: 410, reason: 'Unregistered' },
  tooManyRequests: { status: 429, reason: 'TooManyRequests' },
  internal: { status: 500, reason: 'InternalServerError' },
  unavailable: { status: 503, reason: 'ServiceUnavailable' },
  invalidProviderToken: { status: 403, reason: 'InvalidProviderToken' },
  payloadTooLarge: { status: 413, reason: 'PayloadTooLarge' },
  unexpected: { status: 400, reason: 'SomethingNobodyDocumented' },
} as const satisfies Record<string, ApnsStubAnswer>;

const canonicalUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startApnsStub(options: { clock?: Clock } = {}): Promise<ApnsStub> {
  const clock = options.clock ?? { now: () => Date.now() };
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const teamId = 'TEAM123456';
  const keyId = 'KEY7890ABC';
  const bundleId = 'com.example.keycard.authenticator';
  const expired = new Set<string>();
  const seen = new Set<string>();
  const stub = {
    teamId,
    keyId,
    bundleId,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    requests: [] as ApnsRequest[],
    problems: [] as string[],
    answers: new Map<string, ApnsStubAnswer>(),
    resetFor: new Set<string>(),
    connections: 0,
  };

  async function handle(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, body: string) {
    const apnsId = typeof headers['apns-id'] === 'string' ? headers['apns-id'] : randomUUID();
    const answer = (status: number, reason?: string) => {
      stream.respond({
        ':status': status,
        'apns-id': apnsId,
        ...(reason ? { 'content-type': 'application/json' } : {}),
      });
      stream.end(
        reason
          ? JSON.stringify({ reason, ...(status === 410 ? { timestamp: clock.now() } : {}) })
          : undefined,
      );
    };
    const refuse = (status: number, reason: string) => {
      stub.problems.push(`${status} ${reason}`);
      answer(status, reason);
    };
    if (headers[':method'] !== 'POST') return refuse(405, 'MethodNotAllowed');
    const path = /^\/3\/device\/([^/?]+)$/.exec(String(headers[':path']));
    if (!path) return refuse(404, 'BadPath');
    const deviceToken = decodeURIComponent(path[1]!);
    if (!/^[0-9a-fA-F]{64,}$/.test(deviceToken)) return refuse(400, 'BadDeviceToken');

    const authorization = String(headers.authorization ?? '');
    const jwt = /^bearer (\S+)$/.exec(authorization)?.[1];
    if (!jwt) return refuse(403, 'MissingProviderToken');
    let iat: number;
    try {
      const header = decodeProtectedHeader(jwt);
      if (header.alg !== 'ES256' || header.kid !== keyId) throw new Error('header');
      // Times are checked below against APNs' own one-hour rule, not jose's.
      const { payload } = await jwtVerify(jwt, publicKey, { algorithms: ['ES256'], issuer: teamId });
      if (typeof payload.iat !== 'number') throw new Error('no iat');
      iat = payload.iat;
    } catch {
      return refuse(403, 'InvalidProviderToken');
    }
    const nowSeconds = clock.now() / 1000;
    if (iat > nowSeconds + 60) return refuse(403, 'InvalidProviderToken');
    if (expired.has(jwt) || nowSeconds - iat > 3600) {
      // Not a format problem: the adapter is expected to refresh and retry.
      answer(403, 'ExpiredProviderToken');
      return;
    }

    if (!headers['apns-topic']) return refuse(400, 'MissingTopic');
    if (headers['apns-topic'] !== bundleId) return refuse(400, 'DeviceTokenNotForTopic');
    if (headers['apns-push-type'] !== 'alert') return refuse(400, 'InvalidPushType');
    if (
      headers['apns-priority'] !== undefined &&
      !['10', '5', '1'].includes(String(headers['apns-priority']))
    ) {
      return refuse(400, 'BadPriority');
    }
    if (headers['apns-expiration'] !== undefined && !/^\d+$/.test(String(headers['apns-expiration']))) {
      return refuse(400, 'BadExpirationDate');
    }
    if (headers['apns-id'] !== undefined && !canonicalUuid.test(String(headers['apns-id']))) {
      return refuse(400, 'BadMessageId');
    }
    if (
      headers['apns-collapse-id'] !== undefined &&
      Buffer.byteLength(String(headers['apns-collapse-id'])) > 64
    ) {
      return refuse(400, 'BadCollapseId');
    }
    if (!body) return refuse(400, 'PayloadEmpty');
    if (Buffer.byteLength(body) > 4096) return refuse(413, 'PayloadTooLarge');
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return refuse(400, 'BadRequest');
    }
    const aps = payload.aps as { alert?: { title?: unknown; body?: unknown } } | undefined;
    if (typeof aps?.alert?.title !== 'string' || typeof aps.alert.body !== 'string') {
      stub.problems.push('aps.alert {title, body} missing');
      return answer(400, 'BadRequest');
    }
    const recorded: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!name.startsWith(':') && typeof value === 'string') recorded[name] = value;
    }
    stub.requests.push({
      deviceToken,
      headers: recorded,
      payload,
      providerTokenIat: iat,
      providerToken: jwt,
    });
    seen.add(jwt);
    if (stub.resetFor.has(deviceToken)) {
      stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
      return;
    }
    const configured = stub.answers.get(deviceToken);
    if (configured) return answer(configured.status, configured.reason);
    answer(200);
  }

  const server = http2.createServer();
  server.on('session', () => {
    stub.connections++;
  });
  server.on('stream', (stream, headers) => {
    // A stream the stub resets on purpose reports that as an error: expected here.
    stream.on('error', () => undefined);
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      body += chunk;
    });
    stream.on('end', () => {
      handle(stream, headers, body).catch((error: unknown) => {
        stub.problems.push(`stub failure: ${(error as Error).message}`);
        stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
      });
    });
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stub, {
    url: `http://127.0.0.1:${port}`,
    dropConnections: () =>
      Promise.all(
        [...sessions].map(
          (session) =>
            new Promise<void>((resolve) => {
              session.goaway(http2.constants.NGHTTP2_NO_ERROR);
              session.close(() => resolve());
            }),
        ),
      ).then(() => undefined),
    expireProviderTokens() {
      for (const jwt of seen) expired.add(jwt);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  });
}
