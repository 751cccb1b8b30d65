import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import type { Clock } from '../../shared/clock.ts';
import { fcmScope } from './fcm.provider.ts';

/**
 * A local stand-in for Google's OAuth 2.0 token endpoint and FCM's HTTP v1 messages:send, for
 * tests only. It checks each request the way Google documents it:
 * - token: a form POST with grant_type urn:ietf:params:oauth:grant-type:jwt-bearer and an
 *   RS256 assertion signed with the service account's key (kid = private_key_id), iss = the
 *   client email, aud = token_uri, the firebase.messaging scope, exp − iat ≤ 1 h;
 * - send: POST /v1/projects/{projectId}/messages:send with `Authorization: Bearer` and a token
 *   it issued and that has not expired, a JSON body `{ message }` naming one target (token),
 *   a data map with string values only, notification {title, body}, android.priority
 *   NORMAL|HIGH and android.ttl as a duration in seconds ("90s").
 * It answers Google's error format `{ error: { code, message, status, details } }`.
 */
export interface FcmSendRequest {
  authorization: string;
  message: {
    token: string;
    data: Record<string, string>;
    notification: { title: string; body: string };
    android: { priority: string; ttl: string; collapse_key?: string };
  };
}

export interface FcmTokenRequest {
  /** The assertion's claims. */
  claims: Record<string, unknown>;
  header: Record<string, unknown>;
}

export interface FcmStubAnswer {
  status: number;
  /** The FcmError errorCode in details (UNREGISTERED, QUOTA_EXCEEDED …). */
  errorCode?: string;
  /** google.rpc status, e.g. NOT_FOUND. */
  grpcStatus: string;
  /** A Retry-After header, as FCM sends with 429 and 503. */
  retryAfter?: string;
}

export interface FcmStub {
  url: string;
  projectId: string;
  /** The service account's JSON key file, as the Firebase console downloads it. */
  serviceAccount: {
    type: 'service_account';
    project_id: string;
    private_key_id: string;
    private_key: string;
    client_email: string;
    client_id: string;
    token_uri: string;
  };
  tokenRequests: FcmTokenRequest[];
  sends: FcmSendRequest[];
  /** Requests that broke the documented format (a test expects none). */
  problems: string[];
  /** Per device token: what FCM answers. */
  answers: Map<string, FcmStubAnswer>;
  /** Drop the connection for these device tokens (a network failure). */
  hangUpFor: Set<string>;
  /** Lifetime of the access tokens it issues (expires_in). */
  tokenLifetimeSeconds: number;
  /** Every access token issued so far is refused with 401 from now on (revoked). */
  revokeAccessTokens(): void;
  close(): Promise<void>;
}

/** FCM's documented errors (reference/fcm/rest/v1/ErrorCode). */
export const fcmErrors = {
  unregistered: { status: 404, errorCode: 'UNREGISTERED', grpcStatus: 'NOT_FOUND' },
  invalidArgument: { status: 400, errorCode: 'INVALID_ARGUMENT', grpcStatus: 'INVALID_ARGUMENT' },
  senderIdMismatch: { status: 403, errorCode: 'SENDER_ID_MISMATCH', grpcStatus: 'PERMISSION_DENIED' },
  quotaExceeded: { status: 429, errorCode: 'QUOTA_EXCEEDED', grpcStatus: 'RESOURCE_EXHAUSTED' },
  unavailable: { status: 503, errorCode: 'UNAVAILABLE', grpcStatus: 'UNAVAILABLE' },
  internal: { status: 500, errorCode: 'INTERNAL', grpcStatus: 'INTERNAL' },
  thirdPartyAuth: { status: 401, errorCode: 'THIRD_PARTY_AUTH_ERROR', grpcStatus: 'UNAUTHENTICATED' },
  /** A 404 without an FcmError detail (e.g. a wrong project). */
  plainNotFound: { status: 404, grpcStatus: 'NOT_FOUND' },
} as const satisfies Record<string, FcmStubAnswer>;

const messageFields = new Set([
  'name',
  'data',
  'notification',
  'android',
  'webpush',
  'apns',
  'fcm_options',
  'token',
  'topic',
  'condition',
]);

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

function googleError(
  response: ServerResponse,
  status: number,
  grpcStatus: string,
  message: string,
  errorCode?: string,
  retryAfter?: string,
) {
  response.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    ...(retryAfter ? { 'retry-after': retryAfter } : {}),
  });
  response.end(
    JSON.stringify({
      error: {
        code: status,
        message,
        status: grpcStatus,
        ...(errorCode
          ? { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] }
          : {}),
      },
    }),
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export async function startFcmStub(options: { clock?: Clock } = {}): Promise<FcmStub> {
  const clock = options.clock ?? { now: () => Date.now() };
  const projectId = 'keycard-stub-project';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyId = randomBytes(20).toString('hex');
  const clientEmail = `keycard-push@${projectId}.iam.gserviceaccount.com`;
  const issued = new Map<string, { expiresAt: number; revoked: boolean }>();
  let tokenUri = '';

  const stub = {
    projectId,
    tokenRequests: [] as FcmTokenRequest[],
    sends: [] as FcmSendRequest[],
    problems: [] as string[],
    answers: new Map<string, FcmStubAnswer>(),
    hangUpFor: new Set<string>(),
    tokenLifetimeSeconds: 3599,
  };

  async function token(request: IncomingMessage, response: ServerResponse) {
    const problem = (text: string) => {
      stub.problems.push(`token: ${text}`);
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'invalid_grant', error_description: text }));
    };
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return problem('body is not form-encoded');
    }
    const params = new URLSearchParams(await readBody(request));
    if (params.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return problem(`grant_type ${params.get('grant_type')}`);
    }
    const assertion = params.get('assertion') ?? '';
    let verified: Awaited<ReturnType<typeof jwtVerify>>;
    try {
      verified = await jwtVerify(assertion, publicKey, {
        algorithms: ['RS256'],
        issuer: clientEmail,
        audience: tokenUri,
        currentDate: new Date(clock.now()),
        requiredClaims: ['iat', 'exp'],
      });
    } catch (error) {
      return problem(`assertion refused: ${(error as Error).message}`);
    }
    const { payload, protectedHeader } = verified;
    if (protectedHeader.kid !== privateKeyId) return problem('kid is not the private_key_id');
    if (payload.scope !== fcmScope) return problem(`scope ${String(payload.scope)}`);
    if (payload.exp! - payload.iat! > 3600) return problem('assertion lives longer than an hour');
    stub.tokenRequests.push({ claims: payload, header: protectedHeader });
    const accessToken = `ya29.stub-${randomBytes(24).toString('base64url')}`;
    issued.set(accessToken, { expiresAt: clock.now() + stub.tokenLifetimeSeconds * 1000, revoked: false });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        access_token: accessToken,
        expires_in: stub.tokenLifetimeSeconds,
        token_type: 'Bearer',
      }),
    );
  }

  async function send(request: IncomingMessage, response: ServerResponse, pathProject: string) {
    const body = await readBody(request);
    const invalid = (text: string) => {
      stub.problems.push(`send: ${text}`);
      googleError(response, 400, 'INVALID_ARGUMENT', text);
    };
    if (pathProject !== projectId) return invalid(`unknown project ${pathProject}`);
    const authorization = String(request.headers.authorization ?? '');
    const bearer = /^Bearer (\S+)$/.exec(authorization)?.[1];
    const grant = bearer ? issued.get(bearer) : undefined;
    if (!grant || grant.revoked || clock.now() >= grant.expiresAt) {
      googleError(
        response,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
      );
      return;
    }
    if (!String(request.headers['content-type']).startsWith('application/json')) {
      return invalid('body is not JSON');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return invalid('body is not valid JSON');
    }
    if (!isRecord(parsed) || !isRecord(parsed.message)) return invalid('no message object');
    const message = parsed.message;
    for (const key of Object.keys(message))
      if (!messageFields.has(key)) return invalid(`unknown field message.${key}`);
    const targets = ['token', 'topic', 'condition'].filter((key) => message[key] !== undefined);
    if (targets.length !== 1 || typeof message.token !== 'string' || message.token.length === 0) {
      return invalid('message must name exactly one target: a token');
    }
    if (!isRecord(message.data)) return invalid('message.data missing');
    for (const [key, value] of Object.entries(message.data)) {
      if (typeof value !== 'string')
        return invalid(`Invalid value at 'message.data[${key}].value' (TYPE_STRING)`);
      if (key === 'from' || key === 'gcm' || key.startsWith('google'))
        return invalid(`reserved data key ${key}`);
    }
    if (!isRecord(message.notification)) return invalid('message.notification missing');
    if (typeof message.notification.title !== 'string' || typeof message.notification.body !== 'string') {
      return invalid('notification.title and body must be strings');
    }
    const android = message.android;
    if (!isRecord(android)) return invalid('message.android missing');
    if (android.priority !== 'HIGH' && android.priority !== 'NORMAL')
      return invalid(`android.priority ${String(android.priority)}`);
    if (typeof android.ttl !== 'string' || !/^\d+(\.\d{1,9})?s$/.test(android.ttl)) {
      return invalid(`android.ttl ${String(android.ttl)} is not a duration in seconds`);
    }
    if (Buffer.byteLength(JSON.stringify(message.data)) > 4096) return invalid('message too big');
    stub.sends.push({ authorization, message: message as unknown as FcmSendRequest['message'] });
    if (stub.hangUpFor.has(message.token)) {
      request.socket.destroy();
      return;
    }
    const answer = stub.answers.get(message.token);
    if (answer) {
      googleError(
        response,
        answer.status,
        answer.grpcStatus,
        `stub answer ${answer.grpcStatus}`,
        answer.errorCode,
        answer.retryAfter,
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    response.end(JSON.stringify({ name: `projects/${projectId}/messages/${randomUUID()}` }));
  }

  const server: Server = createServer((request, response) => {
    const url = request.url ?? '';
    const handle = async () => {
      if (request.method === 'POST' && url === '/token') return token(request, response);
      const match = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(url);
      if (request.method === 'POST' && match) return send(request, response, decodeURIComponent(match[1]!));
      stub.problems.push(`unexpected ${request.method} ${url}`);
      googleError(response, 404, 'NOT_FOUND', 'not found');
    };
    handle().catch((error: unknown) => {
      stub.problems.push(`stub failure: ${(error as Error).message}`);
      response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  tokenUri = `${url}/token`;
  return Object.assign(stub, {
    url,
    serviceAccount: {
      type: 'service_account' as const,
      project_id: projectId,
      private_key_id: privateKeyId,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: '100000000000000000001',
      token_uri: tokenUri,
    },
    revokeAccessTokens() {
      for (const grant of issued.values()) grant.revoked = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
