import type { Clock } from '../../shared/clock.ts';
import { DeliveryError, type OutboxMessage, type PhoneContent, type Transport } from '../message.types.ts';

/** What an SMS or a voice call carries, rendered at enqueue time in the user's language. */
export interface PhoneMessageContent extends PhoneContent {
  /** BCP 47 language of the text, e.g. 'de-DE' (the voice a call speaks with). */
  language?: string;
  /** Epoch ms after which sending is pointless (the code inside has expired). */
  expiresAt?: number;
  /** Where the provider reports a call's outcome (busy, no answer), when configured. */
  statusCallbackUrl?: string;
}

export interface PhoneMessage {
  /** E.164, e.g. +4915123456789 */
  to: string;
  text: string;
  language: string;
  /** The outbox message id: a reference the provider may echo back. */
  reference: string;
  statusCallbackUrl?: string | undefined;
}

/**
 * An SMS and voice gateway. Failures throw `phoneDeliveryError(kind, providerCode, …)` so the
 * outbox knows whether to retry and the MFA API can show SPEC §8's message with the code.
 */
export interface PhoneProvider {
  readonly name: string;
  sendSms(message: PhoneMessage): Promise<void>;
  placeCall(message: PhoneMessage): Promise<void>;
}

/** Provider-neutral kinds of delivery failure (stored as `<kind>:<provider code>`). */
export const phoneFailureKinds = {
  /** The number cannot exist or cannot take this channel: use another number. */
  invalidNumber: 'phone.invalid_number',
  /** The recipient or the carrier blocks us (e.g. the user replied STOP): contact support. */
  blocked: 'phone.blocked',
  /** Permanently undeliverable for reasons the user cannot fix: contact support. */
  undeliverable: 'phone.undeliverable',
  /** Temporarily unreachable or the provider is down: try later. */
  unavailable: 'phone.unavailable',
  /** The provider throttles us: try later. */
  rateLimited: 'phone.rate_limited',
  /** Voice: the line was busy. */
  busy: 'voice.busy',
  /** Anything the provider answered that we did not expect. */
  providerError: 'phone.provider_error',
  /** The code expired before the message could be sent. */
  expired: 'phone.expired',
} as const;
export type PhoneFailureKind = (typeof phoneFailureKinds)[keyof typeof phoneFailureKinds];

export function phoneDeliveryError(
  kind: PhoneFailureKind,
  providerCode: string | number | null,
  retryable: boolean,
  detail: string,
): DeliveryError {
  const code = providerCode === null ? kind : `${kind}:${providerCode}`;
  return new DeliveryError(detail, { retryable, code });
}

/** Splits a stored failure code into its kind and the provider's own code. */
export function parseDeliveryFailure(code: string | null): { kind: string; providerCode: string | null } {
  if (!code) return { kind: 'delivery.failed', providerCode: null };
  const index = code.indexOf(':');
  return index === -1
    ? { kind: code, providerCode: null }
    : { kind: code.slice(0, index), providerCode: code.slice(index + 1) };
}

/**
 * Outbox transports for the sms and voice channels over one provider. A message whose code
 * has expired is not sent at all (the outbox would otherwise keep retrying a useless code).
 */
export function createPhoneTransports(
  provider: PhoneProvider,
  clock: Clock,
): { sms: Transport; voice: Transport } {
  const toMessage = (message: OutboxMessage): PhoneMessage => {
    const content = message.content as PhoneMessageContent;
    if (content.expiresAt !== undefined && clock.now() >= content.expiresAt) {
      throw phoneDeliveryError(phoneFailureKinds.expired, null, false, 'the code expired before delivery');
    }
    return {
      to: message.recipient,
      text: content.text,
      language: content.language ?? 'en-GB',
      reference: message.id,
      statusCallbackUrl: content.statusCallbackUrl,
    };
  };
  return {
    sms: { send: async (message) => provider.sendSms(toMessage(message)) },
    voice: { send: async (message) => provider.placeCall(toMessage(message)) },
  };
}

/**
 * Production without a provider: phone factors are not offered (the status says so), and a
 * message that reaches the outbox anyway fails at once instead of pretending to be sent.
 */
export const unconfiguredPhoneProvider: PhoneProvider = {
  name: 'none',
  async sendSms() {
    throw phoneDeliveryError(phoneFailureKinds.providerError, 'unconfigured', false, 'no SMS provider');
  },
  async placeCall() {
    throw phoneDeliveryError(phoneFailureKinds.providerError, 'unconfigured', false, 'no voice provider');
  },
};

/**
 * The default-mode provider: nothing leaves the machine. Every SMS and the words every call
 * would speak stay in the outbox, where the local outbox page (/_dev/outbox) shows them.
 */
export const outboxPageProvider: PhoneProvider = {
  name: 'outbox-page',
  async sendSms() {},
  async placeCall() {},
};
