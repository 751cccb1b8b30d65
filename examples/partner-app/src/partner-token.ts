import { randomUUID } from 'node:crypto';
import { partnerTokenMaxLifetimeSeconds } from '@keycard/contract/partners';
import { SignJWT } from 'jose';
import { type SigningKey, signingAlgorithm } from './signing-key.ts';
import type { PartnerUser } from './tenants.ts';

export interface PartnerTokenInput {
  key: SigningKey;
  /** This app's issuer, as registered for the partner at Keycard. */
  issuer: string;
  /** The tenant's issuer URL (`<tenant origin>/oidc`) and nothing else: a token for one hotel is useless at another. */
  audience: string;
  user: PartnerUser;
  /** Seconds since the epoch. */
  now?: number;
}

/**
 * Signs the partner token for one trip to the hotel portal: short-lived (Keycard refuses more
 * than five minutes) and with a fresh `jti`, because Keycard accepts each token once.
 */
export function mintPartnerToken(input: PartnerTokenInput): Promise<string> {
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const { user } = input;
  return new SignJWT({
    email: user.email,
    // The partner vouches for the address; Keycard links only if it has verified it too.
    email_verified: true,
    given_name: user.givenName,
    family_name: user.familyName,
    locale: user.locale,
  })
    .setProtectedHeader({ alg: signingAlgorithm, kid: input.key.kid, typ: 'JWT' })
    .setIssuer(input.issuer)
    .setAudience(input.audience)
    .setSubject(user.sub)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + partnerTokenMaxLifetimeSeconds)
    .sign(input.key.privateKey);
}
