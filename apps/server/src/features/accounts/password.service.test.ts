import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';
import { buildTestApp, call, demo, engines, type TestApp } from '../../test/helper.ts';
import {
  defaultPasswordHashing,
  hashPassword,
  needsRehash,
  usePasswordHashing,
  verifyPassword,
} from './password.service.ts';
import { activeUser, uniqueEmail } from './test-support.ts';
import { findUserByEmail } from './user.repository.ts';

const owaspMinimum = { memoryKib: 19_456, iterations: 2, parallelism: 1 };

describe('password hashing parameters', () => {
  afterAll(() => usePasswordHashing(defaultPasswordHashing));

  it('hashes with RFC 9106 parameters by default, and names them in the hash', async () => {
    usePasswordHashing(defaultPasswordHashing);
    const hash = await hashPassword(demo.password);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=4\$/);
    expect(await verifyPassword(hash, demo.password)).toBe(true);
    expect(needsRehash(hash)).toBe(false);
  });

  it('asks to re-make a hash made with less work than today’s, not one made with more', async () => {
    usePasswordHashing(owaspMinimum);
    const weak = await hashPassword(demo.password);
    usePasswordHashing(defaultPasswordHashing);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash('$argon2id$v=19$m=262144,t=4,p=4$c2FsdHNhbHQ$aGFzaA')).toBe(false);
    expect(needsRehash('$2b$10$notargon')).toBe(true);
  });

  it('refuses a configuration below the OWASP minimum', () => {
    expect(() => loadConfig({ PASSWORD_HASH_MEMORY_KIB: '8192', PASSWORD_HASH_ITERATIONS: '2' })).toThrow(
      /must be at least 19456/,
    );
    // 35 MiB × 1 pass does as much work as 17.5 MiB × 2 but is below OWASP's row for one pass.
    expect(() => loadConfig({ PASSWORD_HASH_MEMORY_KIB: '35840', PASSWORD_HASH_ITERATIONS: '1' })).toThrow(
      /must be at least 47104/,
    );
    expect(
      loadConfig({ PASSWORD_HASH_MEMORY_KIB: '47104', PASSWORD_HASH_ITERATIONS: '1' }).passwordHashing,
    ).toEqual({
      memoryKib: 47_104,
      iterations: 1,
      parallelism: 4,
    });
  });
});

describe.each(engines)('a stored hash is strengthened at sign-in on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(engine);
  });
  afterAll(async () => {
    usePasswordHashing(defaultPasswordHashing);
    await t.close();
  });

  it('re-makes a weaker hash with the password at hand, keeping the password’s date', async () => {
    const email = uniqueEmail('rehash');
    usePasswordHashing(owaspMinimum);
    const before = await activeUser(t, email, demo.password);
    expect(before.password_hash).toMatch(/m=19456,t=2,p=1/);
    usePasswordHashing(defaultPasswordHashing);

    const login = await call(t.app, 'POST', '/api/login', {
      body: { email, password: demo.password, state: 'state-0123456789abcdef' },
    });
    expect(login.statusCode).toBe(200);
    const after = (await findUserByEmail(t.services.db, 'grand-hotel', email))!;
    expect(after.password_hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=4\$/);
    expect(await verifyPassword(after.password_hash!, demo.password)).toBe(true);
    expect(after.password_changed_at).toBe(before.password_changed_at);
  });
});
