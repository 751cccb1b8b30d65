import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWK,
} from 'jose';

export const signingAlgorithm = 'ES256';

export interface SigningKey {
  /** The key's JWK thumbprint (RFC 7638), so the id changes whenever the key does. */
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/**
 * A fresh P-256 key pair. The demo makes one per start and publishes only its public half:
 * Keycard meets an unknown `kid`, fetches the key set again and carries on — key rotation
 * without telling Keycard anything.
 */
export async function createSigningKey(): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(signingAlgorithm);
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg: signingAlgorithm, use: 'sig' } };
}

/** What /.well-known/jwks.json answers: public keys only. */
export function buildJwks(keys: readonly SigningKey[]): JSONWebKeySet {
  return { keys: keys.map((key) => key.publicJwk) };
}
