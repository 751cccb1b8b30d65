import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Channel, EmailContent, PhoneContent, PushContent } from './message.types.ts';

export interface NewMessage {
  tenantCode: string;
  channel: Channel;
  recipient: string;
  template: string;
  content: EmailContent | PhoneContent | PushContent;
}

/**
 * Invariant 7: call with the transaction that makes the change the message is about, so the
 * message exists if and only if the change does. The worker delivers it afterwards.
 */
export async function enqueueMessage(
  trx: Kysely<Database>,
  message: NewMessage,
  now: number,
): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('outbox')
    .values({
      id,
      tenant_code: message.tenantCode,
      channel: message.channel,
      recipient: message.recipient,
      template: message.template,
      payload: JSON.stringify(message.content),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      sent_at: null,
      last_error: null,
    })
    .execute();
  return id;
}

export type MessageStatus = 'pending' | 'sending' | 'sent' | 'failed';

export async function messageStatus(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('outbox')
    .select(['status', 'attempts', 'last_error'])
    .where('id', '=', id)
    .executeTakeFirst();
}
