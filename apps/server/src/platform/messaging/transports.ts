import nodemailer from 'nodemailer';
import { DeliveryError, type EmailContent, type OutboxMessage, type Transport } from './message.types.ts';

/** The default mode keeps messages in the outbox table, where the local outbox page shows them. */
export const captureTransport: Transport = {
  async send() {},
};

/**
 * How Keycard talks to the relay unless SMTP_URL's query says otherwise: a few kept-open
 * connections, each reused for many messages (a new connection per mail costs the relay's
 * greeting every time), and timeouts short enough that a relay which stops answering holds a
 * delivery for seconds, not nodemailer's default ten minutes; the message is then retried.
 */
export const smtpDefaults = {
  pool: true,
  maxConnections: 4,
  maxMessages: 100,
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
} as const;

/** SMTP_URL with our defaults for every option its query does not set. */
export function smtpUrlWithDefaults(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [key, value] of Object.entries(smtpDefaults)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, String(value));
  }
  return url.href;
}

/** SMTP through nodemailer; the outbox id becomes the Message-ID, so a receiver can drop a duplicate. */
export function createSmtpTransport(smtpUrl: string, from: string): Transport & { close(): void } {
  const transporter = nodemailer.createTransport(smtpUrlWithDefaults(smtpUrl));
  return {
    async send(message: OutboxMessage) {
      const content = message.content as EmailContent;
      try {
        await transporter.sendMail({
          from,
          to: message.recipient,
          subject: content.subject,
          html: content.html,
          text: content.text,
          messageId: `<${message.id}@keycard.outbox>`,
        });
      } catch (error) {
        const responseCode = (error as { responseCode?: number }).responseCode;
        // 5xx answers to the recipient are permanent (RFC 5321 §4.2.1); everything else —
        // refused connections, timeouts, 4xx — is worth trying again.
        const permanent = typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
        throw new DeliveryError(`smtp: ${(error as Error).message}`, {
          retryable: !permanent,
          code: permanent ? 'smtp.rejected' : 'smtp.unavailable',
        });
      }
    },
    close: () => transporter.close(),
  };
}
