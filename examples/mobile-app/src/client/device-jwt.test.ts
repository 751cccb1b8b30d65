import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  createChallengeAnswer,
  createEnrolmentProof,
  createLoginProof,
  generateDeviceKeys,
} from './device-jwt.ts';

// Node's WebCrypto is the same API the browser gives the app, so the signing code runs here unchanged.
const endpoint = 'http://grand-hotel.localhost:3000/api/mobile-beef/graphql';

describe('device JWTs signed with WebCrypto', () => {
  it('keeps the private key non-extractable and exports only the public half', async () => {
    const keys = await generateDeviceKeys();
    expect(keys.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', keys.privateKey)).rejects.toThrow();
    expect(Object.keys(keys.publicJwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(keys.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
  });

  it('signs an enrolment proof that verifies with the key in its own header', async () => {
    const keys = await generateDeviceKeys();
    const proof = await createEnrolmentProof({
      keys,
      endpoint,
      enrolmentToken: 'enrolment-token',
      deviceName: 'Browser on Linux',
      platform: 'WEB',
    });
    const header = decodeProtectedHeader(proof);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'keycard-enrol+jwt' });
    expect(header.jwk).toEqual(keys.publicJwk);
    const { payload } = await jwtVerify(proof, await importJWK(header.jwk as JWK, 'ES256'), {
      audience: endpoint,
      typ: 'keycard-enrol+jwt',
      algorithms: ['ES256'],
    });
    expect(payload).toMatchObject({
      enrolmentToken: 'enrolment-token',
      deviceName: 'Browser on Linux',
      platform: 'WEB',
    });
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(120);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('signs login proofs and answers under the device id, with a fresh jti each time', async () => {
    const keys = await generateDeviceKeys();
    const publicKey = await importJWK(keys.publicJwk, 'ES256');
    const login = await createLoginProof({ privateKey: keys.privateKey, endpoint, deviceId: 'device-1' });
    expect(decodeProtectedHeader(login)).toMatchObject({
      alg: 'ES256',
      typ: 'keycard-device-login+jwt',
      kid: 'device-1',
    });
    const loginClaims = (await jwtVerify(login, publicKey, { audience: endpoint, subject: 'device-1' }))
      .payload;
    expect(loginClaims.exp! - loginClaims.iat!).toBeLessThanOrEqual(120);

    const answer = (decision: 'approve' | 'deny') =>
      createChallengeAnswer({
        privateKey: keys.privateKey,
        endpoint,
        deviceId: 'device-1',
        challengeId: 'challenge-1',
        number: 42,
        decision,
      });
    const [first, second] = [await answer('approve'), await answer('deny')];
    expect(decodeProtectedHeader(first)).toMatchObject({
      alg: 'ES256',
      typ: 'keycard-answer+jwt',
      kid: 'device-1',
    });
    const approved = (await jwtVerify(first, publicKey, { audience: endpoint, typ: 'keycard-answer+jwt' }))
      .payload;
    const denied = (await jwtVerify(second, publicKey, { audience: endpoint })).payload;
    expect(approved).toMatchObject({ challengeId: 'challenge-1', number: 42, decision: 'approve' });
    expect(denied.decision).toBe('deny');
    expect(approved.exp! - approved.iat!).toBeLessThanOrEqual(30);
    expect(approved.jti).not.toBe(denied.jti);
  });

  it('produces signatures another key does not verify', async () => {
    const [device, stranger] = [await generateDeviceKeys(), await generateDeviceKeys()];
    const proof = await createLoginProof({ privateKey: device.privateKey, endpoint, deviceId: 'device-1' });
    await expect(jwtVerify(proof, await importJWK(stranger.publicJwk, 'ES256'))).rejects.toThrow(/signature/);
  });
});
