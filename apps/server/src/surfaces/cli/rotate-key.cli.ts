import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { keysOf, resealed } from '../../platform/shared/crypto.ts';
import { forgetRetiredKeys, retireOlderKeys } from '../../platform/shared/retired-keys.ts';
import type { Secrets } from '../../platform/shared/secrets.ts';
import { UsageError } from './cli-args.ts';

/**
 * `keycard rotate-encryption-key`: everything sealed with an older ENCRYPTION_KEY is sealed
 * again with the newest (the first of the list) — the tenants' signing keys and the
 * authenticator-app secrets. Each value is rewritten only if an older key sealed it, and only
 * if nobody changed it meanwhile (a compare-and-set on the sealed text), so the command can
 * run while instances serve, be stopped at any point and run again. The older keys themselves
 * are kept, sealed with the newest, for the keyed hashes made under them (recovery codes:
 * shared/retired-keys.ts), until `--forget-retired`.
 */

export const rotateKeyUsage = `Encryption key rotation (docs/operations.md#rotating-secrets)
  keycard rotate-encryption-key       seals what is stored with the newest ENCRYPTION_KEY (safe to re-run)
      [--forget-retired]              and drops the older keys kept for recovery codes made under them
`;

interface RotateIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

interface Tally {
  resealed: number;
  current: number;
  unreadable: number;
}

const batchSize = 200;

function reseal(key: Buffer, sealed: string, tally: Tally): string | null {
  try {
    const next = resealed(key, sealed);
    if (next === null) tally.current++;
    return next;
  } catch {
    tally.unreadable++;
    return null;
  }
}

async function resealSigningKeys(db: Kysely<Database>, key: Buffer): Promise<Tally> {
  const tally: Tally = { resealed: 0, current: 0, unreadable: 0 };
  let after = { tenant: '', kid: '' };
  for (;;) {
    const rows = await db
      .selectFrom('signing_keys')
      .select(['tenant_code', 'kid', 'sealed_jwk'])
      .where((eb) =>
        eb.or([
          eb('tenant_code', '>', after.tenant),
          eb.and([eb('tenant_code', '=', after.tenant), eb('kid', '>', after.kid)]),
        ]),
      )
      .orderBy('tenant_code')
      .orderBy('kid')
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      const next = reseal(key, row.sealed_jwk, tally);
      if (next === null) continue;
      const result = await db
        .updateTable('signing_keys')
        .set({ sealed_jwk: next })
        .where('tenant_code', '=', row.tenant_code)
        .where('kid', '=', row.kid)
        .where('sealed_jwk', '=', row.sealed_jwk)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) tally.resealed++;
    }
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) return tally;
    after = { tenant: last.tenant_code, kid: last.kid };
  }
}

async function resealTotpSecrets(db: Kysely<Database>, key: Buffer): Promise<Tally> {
  const tally: Tally = { resealed: 0, current: 0, unreadable: 0 };
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('mfa_factors')
      .select(['id', 'secret_sealed'])
      .where('id', '>', after)
      .where('secret_sealed', 'is not', null)
      .orderBy('id')
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      if (row.secret_sealed === null) continue;
      const next = reseal(key, row.secret_sealed, tally);
      if (next === null) continue;
      const result = await db
        .updateTable('mfa_factors')
        .set({ secret_sealed: next })
        .where('id', '=', row.id)
        .where('secret_sealed', '=', row.secret_sealed)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) tally.resealed++;
    }
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) return tally;
    after = last.id;
  }
}

/** Answers the exit code: 0 when everything readable is sealed with the newest key. */
export async function runRotateEncryptionKey(
  db: Kysely<Database>,
  secrets: Secrets,
  args: string[],
  io: RotateIo,
  now: number,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { 'forget-retired': { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new UsageError('rotate-encryption-key takes no arguments');
  const key = secrets.encryptionKey;
  const keys = keysOf(key).length;
  const results = {
    'signing keys': await resealSigningKeys(db, key),
    'authenticator-app secrets': await resealTotpSecrets(db, key),
  };
  let unreadable = 0;
  for (const [what, tally] of Object.entries(results)) {
    io.out(`${what}: ${tally.resealed} sealed again with the newest key, ${tally.current} already were.`);
    if (tally.unreadable > 0) {
      io.err(`${what}: ${tally.unreadable} cannot be opened with any of the ${keys} keys of ENCRYPTION_KEY.`);
      unreadable += tally.unreadable;
    }
  }
  if (values['forget-retired']) {
    const forgotten = await forgetRetiredKeys(db);
    io.out(
      `retired keys: ${forgotten} forgotten; recovery codes made under them are no longer accepted. Remove the older keys from ENCRYPTION_KEY too.`,
    );
  } else {
    const retired = await retireOlderKeys(db, key, now);
    io.out(
      `retired keys: ${retired.kept} older keys kept for the recovery codes made under them, ${retired.resealed} kept before sealed again.`,
    );
    if (retired.unreadable > 0) {
      io.err(
        `retired keys: ${retired.unreadable} cannot be opened with any of the ${keys} keys of ENCRYPTION_KEY.`,
      );
      unreadable += retired.unreadable;
    }
  }
  if (unreadable > 0) {
    io.err(
      'Some values were sealed with a key that is not listed: add it back to ENCRYPTION_KEY and run again.',
    );
    return 1;
  }
  io.out(
    keys > 1 && !values['forget-retired']
      ? 'Every encrypted value is sealed with the newest key: the older keys may now be removed from ENCRYPTION_KEY (restart the instances after).'
      : 'Every encrypted value is sealed with the newest key.',
  );
  return 0;
}
