/**
 * Mobile-app MFA (SPEC §3 delivery type `smmobile`): the constants and message shapes shared
 * by the server, the portal and the device app (examples/mobile-app). The GraphQL schema is
 * mobile-mfa.graphql beside this file; docs/mobile-mfa.md specifies the device protocol.
 * No zod here: the portal and the device app import this at run time.
 */

/** SPEC §7: the GraphQL endpoint, on every tenant's login domain. */
export const mobileGraphqlPath = '/api/mobile-beef/graphql';

/** The scheme of the enrolment URI the portal shows as a QR code. */
export const enrolmentUriPrefix = 'keycard-mfa://enrol?';

/** The enrolment token (≥128 bits, stored hashed) is valid this long, once. */
export const enrolmentTtlSeconds = 120;
/** A challenge not answered within this time ends as TIMEOUT. */
export const challengeTtlSeconds = 90;
/** A signed answer lives at most this long (exp − iat). */
export const answerMaxLifetimeSeconds = 30;
/** An enrolment or device-login proof lives at most this long (exp − iat). */
export const deviceProofMaxLifetimeSeconds = 120;
/** The device access token from registerMasterDevice / masterDeviceLogin. */
export const deviceSessionTtlSeconds = 60 * 60;
/** Clock skew tolerated on iat/exp of device proofs. */
export const deviceProofSkewSeconds = 30;

/**
 * Against push fatigue: after each unanswered, denied or failed challenge the wait before the
 * next doubles, from 10 s up to an hour; an approval resets it.
 */
export const challengeBackoff = { firstWaitSeconds: 10, maxWaitSeconds: 60 * 60 } as const;
/** "This wasn't me": further pushes for the user are muted this long. */
export const reportMuteSeconds = 60 * 60;

/** The `typ` header of each device-signed JWT (ES256, P-256). */
export const deviceJwtTypes = {
  /** header.jwk carries the new public key; payload: EnrolmentProofClaims. */
  enrol: 'keycard-enrol+jwt',
  /** header.kid is the device id; payload: DeviceLoginClaims. */
  login: 'keycard-device-login+jwt',
  /** header.kid is the device id; payload: ChallengeAnswerClaims. */
  answer: 'keycard-answer+jwt',
} as const;

export type DevicePlatform = 'WEB' | 'IOS' | 'ANDROID';

/** Every device JWT: aud is the tenant's GraphQL URL (https://<loginDomain>/api/mobile-beef/graphql). */
interface DeviceJwtClaims {
  aud: string;
  iat: number;
  exp: number;
  /** Single use: a replayed jti is refused. */
  jti: string;
}

export interface EnrolmentProofClaims extends DeviceJwtClaims {
  /** The token from the enrolment URI. */
  enrolmentToken: string;
  /** 1–64 characters, shown to the user. */
  deviceName: string;
  platform: DevicePlatform;
  /** An FCM registration token (ANDROID) or an APNs device token (IOS); none for WEB. */
  pushToken?: string;
}

export interface DeviceLoginClaims extends DeviceJwtClaims {
  /** The device id (equals header.kid). */
  sub: string;
}

export type ChallengeDecision = 'approve' | 'deny' | 'report';

export interface ChallengeAnswerClaims extends DeviceJwtClaims {
  challengeId: string;
  /** The number the user picked of the three. */
  number: number;
  decision: ChallengeDecision;
}

/** What a push carries: no number, no personal data; the app reads the rest over GraphQL. */
export interface ChallengePushData {
  type: 'number_challenge';
  challengeId: string;
  /** The tenant's GraphQL URL, so one app can serve several tenants. */
  endpoint: string;
}

export type ChallengeStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'TIMEOUT' | 'FAILED';
export type MasterDeviceSetupStatus = 'WAITING' | 'COMPLETED' | 'SETUP_FAILED' | 'SETUP_TIMEOUT_FAILED';

/** Websocket close codes of the endpoint (graphql-ws uses 4400–4499 for protocol errors). */
export const mobileSocketCloseCodes = { unauthenticated: 4401, forbidden: 4403 } as const;

/** SPEC §7 / §9 client rules for the GraphQL endpoint. */
export const graphqlClientRules = {
  /** Retries on status ≥ 500 or a network error, never on other errors. */
  maxRetries: 2,
  firstDelayMs: 100,
  maxDelayMs: 5000,
  /** Websocket reconnect attempts. */
  reconnectAttempts: 10,
} as const;

/** Parses an enrolment URI; null when it is not one. */
export function parseEnrolmentUri(uri: string): { endpoint: string; token: string; tenant: string } | null {
  if (!uri.startsWith(enrolmentUriPrefix)) return null;
  const params = new URLSearchParams(uri.slice(enrolmentUriPrefix.length));
  const endpoint = params.get('endpoint');
  const token = params.get('token');
  const tenant = params.get('tenant');
  if (!endpoint || !token || !tenant) return null;
  return { endpoint, token, tenant };
}

export function enrolmentUri(input: { endpoint: string; token: string; tenant: string }): string {
  return `${enrolmentUriPrefix}${new URLSearchParams(input).toString()}`;
}

/*
 * The GraphQL types of mobile-mfa.graphql as the server returns them and the portal reads them
 * (times are epoch milliseconds). The server's graphql.test.ts checks the schema against them.
 */

export interface MasterDevice {
  id: string;
  name: string;
  platform: DevicePlatform;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface MasterDeviceSetup {
  setupId: string;
  enrolmentUri: string;
  qrCode: string;
  expiresAt: number;
  expiresInSeconds: number;
}

export interface MasterDeviceSetupEvent {
  setupId: string;
  status: MasterDeviceSetupStatus;
  deviceName: string | null;
}

export interface MasterDeviceSetupResult {
  state: string;
  recoveryCodes: string[];
  device: MasterDevice;
}

export interface NumberChallenge {
  id: string;
  number: number;
  expiresAt: number;
  expiresInSeconds: number;
}

export interface NumberChallengeOutcome {
  challengeId: string;
  status: ChallengeStatus;
  retryAfterSeconds: number | null;
}

export interface DeviceChallenge {
  id: string;
  numbers: number[];
  account: string;
  tenantName: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface ChallengeAnswer {
  challengeId: string;
  status: ChallengeStatus;
}

export interface DeviceSession {
  accessToken: string;
  expiresAt: number;
  device: MasterDevice;
  account: string;
  tenantName: string;
}
