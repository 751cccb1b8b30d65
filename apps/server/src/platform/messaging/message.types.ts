import type { ChallengePushData, DevicePlatform } from '@keycard/contract';

export type Channel = 'email' | 'sms' | 'voice' | 'push';

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

/**
 * A push to a mobile-app MFA device (docs/mobile-mfa.md): the recipient is the device's push
 * token (FCM registration token, APNs device token) or, for WEB devices, the device id.
 */
export interface PushContent {
  platform: DevicePlatform;
  deviceId: string;
  /** The notification's visible text, in the user's language: no number, no address. */
  title: string;
  body: string;
  data: ChallengePushData;
  /** Epoch ms after which delivering it is pointless (the challenge's expiry). */
  expiresAt: number;
}

export interface OutboxMessage {
  id: string;
  tenantCode: string;
  channel: Channel;
  recipient: string;
  template: string;
  content: EmailContent | PhoneContent | PushContent;
  attempts: number;
}

/** A delivery failure: retryable ones are tried again with backoff; others stop with a code. */
export class DeliveryError extends Error {
  readonly retryable: boolean;
  readonly code: string;
  /** The provider asked not to be tried again before this long (its Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    options: { retryable: boolean; code: string; retryAfterMs?: number | undefined },
  ) {
    super(message);
    this.retryable = options.retryable;
    this.code = options.code;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export interface Transport {
  send(message: OutboxMessage): Promise<void>;
}

export type Transports = Record<Channel, Transport>;
