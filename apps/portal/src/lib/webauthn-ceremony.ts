import type {
  PasskeyAssertion,
  PasskeyAttestation,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
} from '@keycard/contract/passkeys';
import { startAuthentication, startRegistration, WebAuthnAbortService } from '@simplewebauthn/browser';
import { type CeremonyFailure, PasskeyCeremonyError } from './webauthn-error.ts';

/**
 * The ceremonies themselves, with @simplewebauthn/browser: a chunk of their own, loaded by
 * webauthn.ts when the first ceremony starts (never part of the login route's entry).
 */

/** Turns what the browser or the library threw into the reason a screen can act on. */
export function ceremonyFailure(error: unknown): CeremonyFailure {
  if (error instanceof PasskeyCeremonyError) return error.reason;
  const code = (error as { code?: unknown } | null)?.code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  const name = (cause as { name?: unknown } | null)?.name ?? (error as { name?: unknown } | null)?.name;
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError') return 'aborted';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') return 'exists';
  if (name === 'NotAllowedError') return 'cancelled';
  if (
    name === 'NotSupportedError' ||
    name === 'ConstraintError' ||
    (typeof code === 'string' && code.startsWith('ERROR_AUTHENTICATOR_MISSING')) ||
    /not support/i.test(String((error as { message?: unknown } | null)?.message ?? ''))
  ) {
    return 'unsupported';
  }
  return 'failed';
}

interface Turn {
  signal: AbortSignal | undefined;
  /** Whether this ceremony is still the latest one started (none newer took over). */
  current: () => boolean;
}

/**
 * Runs one ceremony unless a newer one or the signal came first, and cancels it when the
 * signal fires while it is still the current one. (The library keeps one ceremony at a time:
 * starting one cancels the one before.)
 */
async function ceremony<T>(run: () => Promise<T>, { signal, current }: Turn): Promise<T> {
  if (signal?.aborted || !current()) throw new PasskeyCeremonyError('aborted');
  const cancel = () => {
    if (current()) WebAuthnAbortService.cancelCeremony();
  };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await run();
  } catch (error) {
    throw new PasskeyCeremonyError(signal?.aborted ? 'aborted' : ceremonyFailure(error), error);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

export function getAssertion(
  options: PasskeyRequestOptions,
  conditional: boolean,
  turn: Turn,
): Promise<PasskeyAssertion> {
  return ceremony(async () => {
    const answer = await startAuthentication({ optionsJSON: options, useBrowserAutofill: conditional });
    return {
      id: answer.id,
      rawId: answer.rawId,
      type: 'public-key',
      response: {
        clientDataJSON: answer.response.clientDataJSON,
        authenticatorData: answer.response.authenticatorData,
        signature: answer.response.signature,
        ...(answer.response.userHandle ? { userHandle: answer.response.userHandle } : {}),
      },
      ...(answer.authenticatorAttachment ? { authenticatorAttachment: answer.authenticatorAttachment } : {}),
      clientExtensionResults: {},
    };
  }, turn);
}

export function createCredential(options: PasskeyCreationOptions, turn: Turn): Promise<PasskeyAttestation> {
  return ceremony(async () => {
    const answer = await startRegistration({ optionsJSON: options });
    const rk = answer.clientExtensionResults.credProps?.rk;
    const { response } = answer;
    return {
      id: answer.id,
      rawId: answer.rawId,
      type: 'public-key',
      response: {
        clientDataJSON: response.clientDataJSON,
        attestationObject: response.attestationObject,
        ...(response.transports ? { transports: [...response.transports] } : {}),
        ...(response.authenticatorData ? { authenticatorData: response.authenticatorData } : {}),
        ...(response.publicKey ? { publicKey: response.publicKey } : {}),
        ...(response.publicKeyAlgorithm !== undefined
          ? { publicKeyAlgorithm: response.publicKeyAlgorithm }
          : {}),
      },
      ...(answer.authenticatorAttachment ? { authenticatorAttachment: answer.authenticatorAttachment } : {}),
      clientExtensionResults: rk === undefined ? {} : { credProps: { rk } },
    };
  }, turn);
}
