export type Channel = 'email' | 'sms' | 'voice';

/** What the outbox stores: rendered at enqueue time, in the recipient's language. */
export interface EmailContent {
  subject: string;
  html: string;
  text: string;
}

export interface PhoneContent {
  /** The SMS text, or the words a voice call speaks. */
  text: string;
}

export interface OutboxMessage {
  id: string;
  tenantCode: string;
  channel: Channel;
  recipient: string;
  template: string;
  content: EmailContent | PhoneContent;
  attempts: number;
}

/** A delivery failure: retryable ones are tried again with backoff; others stop with a code. */
export class DeliveryError extends Error {
  readonly retryable: boolean;
  readonly code: string;

  constructor(message: string, options: { retryable: boolean; code: string }) {
    super(message);
    this.retryable = options.retryable;
    this.code = options.code;
  }
}

export interface Transport {
  send(message: OutboxMessage): Promise<void>;
}

export type Transports = Record<Channel, Transport>;
