import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DeliveryError, type OutboxMessage } from './message.types.ts';
import { createSmtpTransport, smtpDefaults, smtpUrlWithDefaults } from './transports.ts';

const message: OutboxMessage = {
  id: '5d0c6f0e-2f53-4c1b-9d3e-4b1f0b8f6a11',
  tenantCode: 'grand-hotel',
  channel: 'email',
  recipient: 'anna@grand-hotel.test',
  template: 'security.new-browser-sign-in',
  content: { subject: 'A new browser', html: '<p>Hello</p>', text: 'Hello' },
  attempts: 1,
};

describe('the SMTP transport', () => {
  it('keeps connections open and times out a silent relay, unless SMTP_URL says otherwise', () => {
    const url = new URL(smtpUrlWithDefaults('smtp://user:p%40ss@relay.internal:587'));
    expect(url.username).toBe('user');
    expect(url.password).toBe('p%40ss');
    expect(url.searchParams.get('pool')).toBe('true');
    expect(Number(url.searchParams.get('socketTimeout'))).toBe(smtpDefaults.socketTimeout);
    expect(Number(url.searchParams.get('greetingTimeout'))).toBeLessThanOrEqual(10_000);
    const own = new URL(smtpUrlWithDefaults('smtp://relay.internal:25/?pool=false&socketTimeout=120000'));
    expect(own.searchParams.get('pool')).toBe('false');
    expect(own.searchParams.get('socketTimeout')).toBe('120000');
  });

  it('gives up on a relay that accepts the connection and never greets: a retryable failure, soon', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const port = (silent.address() as AddressInfo).port;
    const transport = createSmtpTransport(
      `smtp://127.0.0.1:${port}/?greetingTimeout=300`,
      'no-reply@keycard.test',
    );
    try {
      const started = Date.now();
      const failure = await transport.send(message).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(DeliveryError);
      expect(failure).toMatchObject({ retryable: true, code: 'smtp.unavailable' });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(sockets.length).toBeGreaterThanOrEqual(1);
    } finally {
      transport.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
