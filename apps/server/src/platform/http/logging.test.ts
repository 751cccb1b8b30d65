import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import { seedDemo } from '../../surfaces/seed/demo.ts';
import { call, demo, sessionCookieOf } from '../../test/helper.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';

describe('logs', () => {
  it('never contain passwords, login codes, session tokens or query strings', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keycard-logs-'));
    const config = loadConfig({
      DATA_DIR: dir,
      LOG_LEVEL: 'trace',
      COOKIE_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    const database = await openDatabase({ sqliteFile: path.join(dir, 'k.sqlite') });
    await seedDemo(database.kysely);
    const lines: string[] = [];
    const { app } = await createApp({
      config,
      database,
      secrets: {
        cookieKeys: [config.cookieSecret!],
        encryptionKey: Buffer.from(config.encryptionKey!, 'hex'),
      },
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      const wrong = await call(app, 'POST', '/api/login', {
        body: { email: demo.grandHotel.email, password: 'Wrong-Secret-77', state: 'state-0123456789abcdef' },
      });
      expect(wrong.statusCode).toBe(401);
      const login = await call(app, 'POST', '/api/login', {
        body: { email: demo.grandHotel.email, password: demo.password, state: 'state-0123456789abcdef' },
      });
      const code = login.json().code as string;
      const authenticate = await call(app, 'POST', '/api/authenticate', {
        body: { code, tenantCode: 'grand-hotel' },
      });
      const cookie = sessionCookieOf(authenticate)!;
      await call(app, 'GET', `/authenticate/?code=${code}&state=query-secret-123`, { cookie });
      await call(app, 'GET', '/api/session', { cookie, headers: { 'x-trace-token': 'trace-abcdef123456' } });
      await call(app, 'GET', '/oidc/.well-known/openid-configuration');

      const log = lines.join('');
      // One line per request, the provider's included.
      const completed = lines.filter((line) => line.includes('"msg":"request completed"'));
      expect(completed).toHaveLength(6);
      expect(completed.at(-1)).toContain('"path":"/oidc/.well-known/openid-configuration"');
      expect(completed.at(-1)).toContain('"status":200');
      for (const secret of [
        demo.password,
        'Wrong-Secret-77',
        code,
        cookie.split('=')[1]!,
        'query-secret-123',
      ]) {
        expect(log).not.toContain(secret);
      }
      // The portal's trace token is the request id, so a support case can be followed.
      expect(log).toContain('"reqId":"trace-abcdef123456"');
    } finally {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
