import {
  answerMaxLifetimeSeconds,
  type ChallengeAnswerClaims,
  type ChallengeDecision,
  type DeviceLoginClaims,
  type DevicePlatform,
  deviceJwtTypes,
  type EnrolmentProofClaims,
} from '@keycard/contract/mobile-mfa';
import { encodeBase64url, encodeBase64urlJson } from './base64url.ts';

/** The public half of the device key as it travels in header.jwk: EC P-256, never a `d`. */
export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface DeviceKeys {
  /** Non-extractable: WebCrypto refuses to export it, so it never leaves this browser. */
  privateKey: CryptoKey;
  publicJwk: PublicJwk;
}

const keyAlgorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const signAlgorithm = { name: 'ECDSA', hash: 'SHA-256' } as const;

/**
 * Enrolment and login proofs live a minute: inside the server's limit (deviceProofMaxLifetimeSeconds)
 * with room for a slow network, short enough that a copied proof is soon worthless.
 */
const proofLifetimeSeconds = 60;

export async function generateDeviceKeys(): Promise<DeviceKeys> {
  // extractable=false binds the private key only; WebCrypto keeps the public key exportable.
  const pair = await crypto.subtle.generateKey(keyAlgorithm, false, ['sign', 'verify']);
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  if (!jwk.x || !jwk.y) throw new Error('The browser exported an incomplete public key');
  return { privateKey: pair.privateKey, publicJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } };
}

/**
 * A compact JWS with ES256. WebCrypto's ECDSA signature is already the fixed-length r||s form
 * JWS requires (RFC 7518 §3.4), so no DER conversion is needed.
 */
export async function signJwt(
  privateKey: CryptoKey,
  header: Record<string, unknown>,
  claims: object,
): Promise<string> {
  const signingInput = `${encodeBase64urlJson({ ...header, alg: 'ES256' })}.${encodeBase64urlJson(claims)}`;
  const signature = await crypto.subtle.sign(
    signAlgorithm,
    privateKey,
    new TextEncoder().encode(signingInput),
  );
  return `${signingInput}.${encodeBase64url(new Uint8Array(signature))}`;
}

function timeClaims(lifetimeSeconds: number, now: number): { iat: number; exp: number; jti: string } {
  const iat = Math.floor(now / 1000);
  return { iat, exp: iat + lifetimeSeconds, jti: crypto.randomUUID() };
}

export function createEnrolmentProof(input: {
  keys: DeviceKeys;
  endpoint: string;
  enrolmentToken: string;
  deviceName: string;
  platform: DevicePlatform;
  now?: number;
}): Promise<string> {
  const claims: EnrolmentProofClaims = {
    enrolmentToken: input.enrolmentToken,
    deviceName: input.deviceName,
    platform: input.platform,
    aud: input.endpoint,
    ...timeClaims(proofLifetimeSeconds, input.now ?? Date.now()),
  };
  return signJwt(input.keys.privateKey, { typ: deviceJwtTypes.enrol, jwk: input.keys.publicJwk }, claims);
}

export function createLoginProof(input: {
  privateKey: CryptoKey;
  endpoint: string;
  deviceId: string;
  now?: number;
}): Promise<string> {
  const claims: DeviceLoginClaims = {
    sub: input.deviceId,
    aud: input.endpoint,
    ...timeClaims(proofLifetimeSeconds, input.now ?? Date.now()),
  };
  return signJwt(input.privateKey, { typ: deviceJwtTypes.login, kid: input.deviceId }, claims);
}

export function createChallengeAnswer(input: {
  privateKey: CryptoKey;
  endpoint: string;
  deviceId: string;
  challengeId: string;
  number: number;
  decision: ChallengeDecision;
  now?: number;
}): Promise<string> {
  const claims: ChallengeAnswerClaims = {
    challengeId: input.challengeId,
    number: input.number,
    decision: input.decision,
    aud: input.endpoint,
    ...timeClaims(answerMaxLifetimeSeconds, input.now ?? Date.now()),
  };
  return signJwt(input.privateKey, { typ: deviceJwtTypes.answer, kid: input.deviceId }, claims);
}
