import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { decrypt, encrypt } from '../../platform/shared/crypto.ts';

export interface SigningJwk {
  kid: string;
  kty: string;
  alg: string;
  use: string;
  [key: string]: unknown;
}

/**
 * The tenant's signing keys, sealed with the encryption key at rest. Created on first use;
 * if two instances race, both keys are kept and published, which is harmless.
 */
export async function loadSigningKeys(
  db: Kysely<Database>,
  encryptionKey: Buffer,
  tenantCode: string,
): Promise<SigningJwk[]> {
  const read = async () =>
    (
      await db
        .selectFrom('signing_keys')
        .select('sealed_jwk')
        .where('tenant_code', '=', tenantCode)
        .orderBy('created_at', 'desc')
        .execute()
    ).map((row) => JSON.parse(decrypt(encryptionKey, row.sealed_jwk)) as SigningJwk);
  const keys = await read();
  if (keys.length > 0) return keys;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk: SigningJwk = {
    ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>),
    kty: 'RSA',
    kid: randomUUID(),
    alg: 'RS256',
    use: 'sig',
  };
  await db
    .insertInto('signing_keys')
    .values({
      tenant_code: tenantCode,
      kid: jwk.kid,
      sealed_jwk: encrypt(encryptionKey, JSON.stringify(jwk)),
      created_at: Date.now(),
    })
    .execute();
  return read();
}
