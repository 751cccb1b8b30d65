import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteUser } from '../../features/accounts/invitation.service.ts';
import { buildTestApp, call, engines, freePort, type TestApp } from '../../test/helper.ts';
import { parseMail, type ReceivedMail } from './smtp-test-support.ts';

/**
 * A real SMTP server (smtp-server) on a local port. It accepts every message, except that it
 * can be told to answer one recipient's message with a temporary failure (421) and shut down
 * right there — a relay that goes away in the middle of a delivery pass. It can be started
 * again on the same port.
 */
class TestSmtp {
  readonly received: ReceivedMail[] = [];
  port = 0;
  /** The recipient whose message makes the relay fail and stop. */
  failAndStopOn: string | undefined;
  stopping: Promise<void> | undefined;
  #server: SMTPServer | undefined;

  async start(port = 0): Promise<void> {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      disableReverseLookup: true,
      // A relay going away drops the connections Keycard keeps open, as a real one does.
      closeTimeout: 50,
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
          if (this.failAndStopOn && recipients.includes(this.failAndStopOn)) {
            this.failAndStopOn = undefined;
            callback(Object.assign(new Error('Service shutting down'), { responseCode: 421 }));
            this.stopping = this.stop();
            return;
          }
          this.received.push(parseMail(Buffer.concat(chunks).toString('utf8')));
          callback();
        });
      },
    });
    this.#server.listen(port, '127.0.0.1');
    await once(this.#server.server, 'listening');
    this.port = (this.#server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe.each(engines)('mail through a real SMTP server on %s', (engine) => {
  let t: TestApp;
  const smtp = new TestSmtp();
  beforeAll(async () => {
    await smtp.start(await freePort());
    t = await buildTestApp(engine, {
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Keycard <no-reply@keycard.test>' },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  async function outboxRow(id: string) {
    return t.services.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  it('delivers an activation mail: subject, themed HTML, plain text and link, in the user language', async () => {
    const tenant = (await t.services.tenants.byCode('seaside'))!;
    const { messageId } = await inviteUser(
      t.services,
      tenant,
      { email: 'marie@seaside.test', type: 'staff', locale: 'fr' },
      t.clock.now(),
    );
    expect(await t.services.outbox.runOnce()).toBe(1);
    const mail = smtp.received.find((m) => m.headers['message-id'] === `<${messageId}@keycard.outbox>`)!;
    expect(mail).toBeDefined();
    expect(mail.headers.subject).toBe('Activez votre compte Seaside Resorts');
    expect(mail.headers.to).toBe('marie@seaside.test');
    expect(mail.headers.from).toBe('Keycard <no-reply@keycard.test>');
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.html).toContain('background:#006d77');
    expect(mail.html).toContain('src="http://seaside.localhost:3000/brand/seaside-logo.svg"');
    expect(mail.text).toContain('Un compte a été créé pour vous chez Seaside Resorts.');
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
    expect(link.origin).toBe('http://seaside.localhost:3000');
    expect(link.pathname).toBe('/activate/');
    expect(link.searchParams.get('langCode')).toBe('fr');
    // The link works: the portal's first call accepts it.
    const validate = await call(t.app, 'POST', '/api/user/validate-token', {
      host: 'seaside.localhost:3000',
      body: { token: link.searchParams.get('token') },
    });
    expect(validate.json()).toEqual({ email: 'marie@seaside.test' });
    expect(await outboxRow(messageId)).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
  });

  it('keeps every mail through an SMTP outage and delivers each exactly once when it returns', async () => {
    const tenant = (await t.services.tenants.byCode('grand-hotel'))!;
    const invite = async (email: string) =>
      (await inviteUser(t.services, tenant, { email, type: 'staff', locale: 'en' }, t.clock.now())).messageId;
    const deliveredIds = () => smtp.received.map((m) => m.headers['message-id']);
    const before = smtp.received.length;

    // Three mails queued and sent side by side; the relay answers the second with a temporary
    // failure and shuts down, so a mail not through by then finds nobody listening.
    const ids = [
      await invite('one@grand-hotel.test'),
      await invite('two@grand-hotel.test'),
      await invite('three@grand-hotel.test'),
    ];
    const port = smtp.port;
    smtp.failAndStopOn = 'two@grand-hotel.test';
    const first = await t.services.outbox.runOnce();
    await smtp.stopping;
    expect(first).toBe(smtp.received.length - before);
    expect(first).toBeLessThanOrEqual(2);

    const waiting = [];
    for (const id of ids) {
      const row = await outboxRow(id);
      if (row.status === 'sent') continue;
      waiting.push(id);
      expect(row.status).toBe('pending');
      expect(row.attempts).toBe(1);
      expect(row.last_error).toBe('smtp.unavailable');
      expect(row.next_attempt_at).toBeGreaterThan(t.clock.now());
    }
    expect(waiting).toContain(ids[1]);
    expect(waiting.length + first).toBe(3);
    // While the relay is down, nothing is due yet and nothing is lost.
    expect(await t.services.outbox.runOnce()).toBe(0);

    await smtp.start(port);
    // Two workers (two instances) at once: each message is claimed by one of them only. A kept
    // connection the old relay dropped may fail one more try before the pool notices; then the
    // backoff's next turn delivers it.
    let delivered = 0;
    for (let turn = 0; turn < 3 && delivered < waiting.length; turn++) {
      t.clock.advance(60_000);
      const passes = await Promise.all([t.services.outbox.runOnce(), t.services.outbox.runOnce()]);
      delivered += passes[0]! + passes[1]!;
    }
    expect(delivered).toBe(waiting.length);
    expect(await t.services.outbox.runOnce()).toBe(0);

    for (const id of ids) {
      expect(
        deliveredIds().filter((received) => received === `<${id}@keycard.outbox>`),
        id,
      ).toHaveLength(1);
      expect((await outboxRow(id)).status).toBe('sent');
    }
  });
});
