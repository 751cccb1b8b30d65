import { randomUUID } from 'node:crypto';
import {
  type ChallengeDecision,
  type DevicePlatform,
  deviceJwtTypes,
  mobileGraphqlPath,
  parseEnrolmentUri,
} from '@keycard/contract';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { call, type TestApp } from '../../test/helper.ts';

/** Test support for the mobile-app MFA tests (not a test file itself): a device and its calls. */

export type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export const documents = {
  masterDevice: 'query { masterDevice { id name platform createdAt lastUsedAt } }',
  setup:
    'mutation Setup($replace: Boolean) { setupMasterDevice(replace: $replace) { setupId enrolmentUri qrCode expiresAt expiresInSeconds } }',
  finish:
    'mutation Finish($setupId: ID!) { finishMasterDeviceSetup(setupId: $setupId) { state recoveryCodes device { id name platform } } }',
  register:
    'mutation Register($proof: String!) { registerMasterDevice(proof: $proof) { accessToken expiresAt account tenantName device { id name platform createdAt } } }',
  login:
    'mutation Login($proof: String!) { masterDeviceLogin(proof: $proof) { accessToken expiresAt account tenantName device { id } } }',
  challenge: 'mutation { numberChallenge { id number expiresAt expiresInSeconds } }',
  answer:
    'mutation Answer($answer: String!) { answerNumberChallenge(answer: $answer) { challengeId status } }',
  pending:
    'query { pendingChallenges { id numbers account tenantName ipAddress userAgent createdAt expiresAt } }',
  outcome:
    'subscription Outcome($challengeId: ID!) { numberChallengeOutcome(challengeId: $challengeId) { challengeId status retryAfterSeconds } }',
  setupEvents:
    'subscription SetupEvents($setupId: ID!) { masterDeviceSetup(setupId: $setupId) { setupId status deviceName } }',
  deviceChallenges: 'subscription { deviceChallenges { id numbers account tenantName } }',
} as const;

export interface GraphqlAnswer {
  status: number;
  data: Record<string, unknown> | null | undefined;
  errors:
    | { message: string; extensions: { code: string; status: number; retryAfterSeconds?: number } }[]
    | undefined;
}

/** POST /api/mobile-beef/graphql through app.inject, as the portal (cookie) or a device (bearer). */
export async function gql(
  t: TestApp,
  host: string,
  query: string,
  variables: Record<string, unknown> = {},
  options: { cookie?: string; bearer?: string; origin?: string | null } = {},
): Promise<GraphqlAnswer> {
  const response = await call(t.app, 'POST', mobileGraphqlPath, {
    host,
    body: { query, variables },
    ...(options.cookie ? { cookie: options.cookie } : {}),
    ...(options.origin !== undefined ? { origin: options.origin } : {}),
    ...(options.bearer ? { headers: { authorization: `Bearer ${options.bearer}` } } : {}),
  });
  const body = response.json() as { data?: Record<string, unknown> | null; errors?: GraphqlAnswer['errors'] };
  return { status: response.statusCode, data: body.data, errors: body.errors };
}

/** The contract code of the first error, or undefined when there is none. */
export function codeOf(answer: GraphqlAnswer): string | undefined {
  return answer.errors?.[0]?.extensions.code;
}

/** The partner app as a test plays it: a P-256 key pair and the proofs it signs. */
export class TestDevice {
  readonly keys: KeyPair;
  readonly jwk: JWK;
  id: string | undefined;
  accessToken: string | undefined;

  private constructor(keys: KeyPair, jwk: JWK) {
    this.keys = keys;
    this.jwk = jwk;
  }

  static async create(): Promise<TestDevice> {
    const keys = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(keys.publicKey);
    return new TestDevice(keys, { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } as JWK);
  }

  /** A signed device JWT; `override` changes header or claims to make a bad one. */
  async sign(
    header: Record<string, unknown>,
    claims: Record<string, unknown>,
    options: { nowMs: number; lifetimeSeconds?: number; key?: KeyPair['privateKey'] },
  ): Promise<string> {
    const iat = Math.floor(options.nowMs / 1000);
    return new SignJWT({ iat, exp: iat + (options.lifetimeSeconds ?? 60), jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: 'ES256', ...header })
      .sign(options.key ?? this.keys.privateKey);
  }

  enrolProof(
    uri: string,
    nowMs: number,
    extra: {
      header?: Record<string, unknown>;
      claims?: Record<string, unknown>;
      lifetimeSeconds?: number;
    } = {},
  ): Promise<string> {
    const parsed = parseEnrolmentUri(uri);
    if (!parsed) throw new Error(`not an enrolment URI: ${uri}`);
    return this.sign(
      { typ: deviceJwtTypes.enrol, jwk: this.jwk, ...extra.header },
      {
        enrolmentToken: parsed.token,
        deviceName: 'Test phone',
        platform: 'WEB' satisfies DevicePlatform,
        aud: parsed.endpoint,
        ...extra.claims,
      },
      { nowMs, ...(extra.lifetimeSeconds ? { lifetimeSeconds: extra.lifetimeSeconds } : {}) },
    );
  }

  loginProof(
    endpoint: string,
    nowMs: number,
    extra: {
      header?: Record<string, unknown>;
      claims?: Record<string, unknown>;
      lifetimeSeconds?: number;
      key?: KeyPair['privateKey'];
    } = {},
  ): Promise<string> {
    return this.sign(
      { typ: deviceJwtTypes.login, kid: this.id, ...extra.header },
      { sub: this.id, aud: endpoint, ...extra.claims },
      {
        nowMs,
        ...(extra.lifetimeSeconds ? { lifetimeSeconds: extra.lifetimeSeconds } : {}),
        ...(extra.key ? { key: extra.key } : {}),
      },
    );
  }

  answer(
    endpoint: string,
    challengeId: string,
    number: number,
    decision: ChallengeDecision,
    nowMs: number,
    extra: {
      header?: Record<string, unknown>;
      claims?: Record<string, unknown>;
      lifetimeSeconds?: number;
      key?: KeyPair['privateKey'];
    } = {},
  ): Promise<string> {
    return this.sign(
      { typ: deviceJwtTypes.answer, kid: this.id, ...extra.header },
      { challengeId, number, decision, aud: endpoint, ...extra.claims },
      {
        nowMs,
        lifetimeSeconds: extra.lifetimeSeconds ?? 20,
        ...(extra.key ? { key: extra.key } : {}),
      },
    );
  }
}

/** The GraphQL URL of a test host (what device proofs name as aud). */
export function endpointOf(host: string): string {
  return `http://${host}${mobileGraphqlPath}`;
}

/**
 * The whole enrolment through the API: setupMasterDevice, the device's registerMasterDevice,
 * finishMasterDeviceSetup. Answers the device (with id and access token) and the recovery codes.
 */
export async function enrolDevice(
  t: TestApp,
  host: string,
  cookie: string,
  options: { replace?: boolean; device?: TestDevice } = {},
): Promise<{ device: TestDevice; recoveryCodes: string[]; state: string }> {
  const device = options.device ?? (await TestDevice.create());
  const setup = await gql(t, host, documents.setup, { replace: options.replace ?? false }, { cookie });
  if (!setup.data) throw new Error(`setup failed: ${JSON.stringify(setup.errors)}`);
  const { setupId, enrolmentUri } = setup.data.setupMasterDevice as { setupId: string; enrolmentUri: string };
  const registered = await gql(t, host, documents.register, {
    proof: await device.enrolProof(enrolmentUri, t.clock.now()),
  });
  if (!registered.data) throw new Error(`register failed: ${JSON.stringify(registered.errors)}`);
  const session = registered.data.registerMasterDevice as { accessToken: string; device: { id: string } };
  device.id = session.device.id;
  device.accessToken = session.accessToken;
  const finished = await gql(t, host, documents.finish, { setupId }, { cookie });
  if (!finished.data) throw new Error(`finish failed: ${JSON.stringify(finished.errors)}`);
  const result = finished.data.finishMasterDeviceSetup as { recoveryCodes: string[]; state: string };
  return { device, recoveryCodes: result.recoveryCodes, state: result.state };
}
