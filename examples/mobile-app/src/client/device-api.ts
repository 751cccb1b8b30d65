import { mobileErrors } from '@keycard/contract/errors';
import type { ChallengeDecision, ChallengeStatus, DevicePlatform } from '@keycard/contract/mobile-mfa';
import {
  createChallengeAnswer,
  createEnrolmentProof,
  createLoginProof,
  type DeviceKeys,
} from './device-jwt.ts';
import { GraphqlError, requestGraphql } from './graphql.ts';
import type { Pairing } from './pairing-store.ts';

/** A challenge as the deviceChallenges subscription and the pendingChallenges query give it. */
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

export interface DeviceSession {
  accessToken: string;
  expiresAt: number;
  account: string;
  tenantName: string;
  device: { id: string; name: string };
}

export const challengeFields = 'id numbers account tenantName ipAddress userAgent createdAt expiresAt';
const sessionFields = 'accessToken expiresAt account tenantName device { id name }';

export async function registerDevice(input: {
  endpoint: string;
  enrolmentToken: string;
  keys: DeviceKeys;
  deviceName: string;
  platform: DevicePlatform;
}): Promise<DeviceSession> {
  const data = await requestGraphql<{ registerMasterDevice: DeviceSession }>({
    endpoint: input.endpoint,
    operationName: 'RegisterMasterDevice',
    query: `mutation RegisterMasterDevice($proof: String!) { registerMasterDevice(proof: $proof) { ${sessionFields} } }`,
    variables: async () => ({ proof: await createEnrolmentProof(input) }),
  });
  return data.registerMasterDevice;
}

export async function loginDevice(pairing: Pairing): Promise<DeviceSession> {
  const data = await requestGraphql<{ masterDeviceLogin: DeviceSession }>({
    endpoint: pairing.endpoint,
    operationName: 'MasterDeviceLogin',
    query: `mutation MasterDeviceLogin($proof: String!) { masterDeviceLogin(proof: $proof) { ${sessionFields} } }`,
    variables: async () => ({
      proof: await createLoginProof({
        privateKey: pairing.privateKey,
        endpoint: pairing.endpoint,
        deviceId: pairing.deviceId,
      }),
    }),
  });
  return data.masterDeviceLogin;
}

export async function answerChallenge(
  pairing: Pairing,
  challengeId: string,
  number: number,
  decision: ChallengeDecision,
): Promise<{ challengeId: string; status: ChallengeStatus }> {
  const data = await requestGraphql<{
    answerNumberChallenge: { challengeId: string; status: ChallengeStatus };
  }>({
    endpoint: pairing.endpoint,
    operationName: 'AnswerNumberChallenge',
    query:
      'mutation AnswerNumberChallenge($answer: String!) { answerNumberChallenge(answer: $answer) { challengeId status } }',
    variables: async () => ({
      answer: await createChallengeAnswer({
        privateKey: pairing.privateKey,
        endpoint: pairing.endpoint,
        deviceId: pairing.deviceId,
        challengeId,
        number,
        decision,
      }),
    }),
  });
  return data.answerNumberChallenge;
}

/** A minute's margin, so a token never expires between the check and the server reading it. */
const tokenMarginMs = 60_000;

function tokenStorageKey(pairing: Pairing): string {
  return `keycard-device-token:${pairing.deviceId}`;
}

/**
 * The device access token: kept in sessionStorage (gone with the tab), renewed with a fresh
 * key proof (masterDeviceLogin) whenever it is missing, expired, or refused.
 */
export function createTokenKeeper(pairing: Pairing) {
  let pendingLogin: Promise<string> | null = null;

  function readStored(): string | null {
    try {
      const stored = JSON.parse(sessionStorage.getItem(tokenStorageKey(pairing)) ?? 'null') as {
        accessToken: string;
        expiresAt: number;
      } | null;
      return stored && stored.expiresAt - tokenMarginMs > Date.now() ? stored.accessToken : null;
    } catch {
      return null;
    }
  }

  async function login(): Promise<string> {
    const session = await loginDevice(pairing);
    sessionStorage.setItem(
      tokenStorageKey(pairing),
      JSON.stringify({ accessToken: session.accessToken, expiresAt: session.expiresAt }),
    );
    return session.accessToken;
  }

  return {
    /** A valid token, signing in as the device first when needed (one login at a time). */
    async get(): Promise<string> {
      const stored = readStored();
      if (stored) return stored;
      pendingLogin ??= login().finally(() => {
        pendingLogin = null;
      });
      return pendingLogin;
    },
    store(session: DeviceSession): void {
      sessionStorage.setItem(
        tokenStorageKey(pairing),
        JSON.stringify({ accessToken: session.accessToken, expiresAt: session.expiresAt }),
      );
    },
    drop(): void {
      sessionStorage.removeItem(tokenStorageKey(pairing));
    },
  };
}

export type TokenKeeper = ReturnType<typeof createTokenKeeper>;

/** Challenges still waiting for this device; signs in again once if the token was refused. */
export async function fetchPendingChallenges(
  pairing: Pairing,
  tokens: TokenKeeper,
): Promise<DeviceChallenge[]> {
  const run = async () =>
    (
      await requestGraphql<{ pendingChallenges: DeviceChallenge[] }>({
        endpoint: pairing.endpoint,
        operationName: 'PendingChallenges',
        query: `query PendingChallenges { pendingChallenges { ${challengeFields} } }`,
        accessToken: await tokens.get(),
      })
    ).pendingChallenges;
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof GraphqlError) || error.code !== mobileErrors.deviceUnauthenticated) throw error;
    tokens.drop();
    return run();
  }
}
