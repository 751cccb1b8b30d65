import nodemailer from 'nodemailer';
import { DeliveryError, type EmailContent, type OutboxMessage, type Transport } from './message.types.ts';

/** The default mode keeps messages in the outbox table, where the local outbox page shows them. */
export const captureTransport: Transport = {
  async send() {},
};

/** SMTP through nodemailer; the outbox id becomes the Message-ID, so a receiver can drop a duplicate. */
export function createSmtpTransport(smtpUrl: string, from: string): Transport & { close(): void } {
  const transporter = nodemailer.createTransport(smtpUrl);
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
