import { generate } from 'otplib';
import type { Keycard } from './keycard.ts';

/**
 * The code an authenticator app would show for a secret, computed independently of the
 * server (otplib in the test), at the server's clock (which tests move), `steps` away.
 */
export function totpCode(keycard: Keycard, secret: string, steps = 0): Promise<string> {
  return generate({
    secret: secret.replace(/\s+/g, ''),
    epoch: Math.floor(keycard.clock.now() / 1000) + steps * 30,
  });
}

/** Moves the server to the start of the next 30-second step, so the next code is a new one. */
export function nextTimeStep(keycard: Keycard): void {
  const now = keycard.clock.now();
  keycard.clock.advance(30_000 - (now % 30_000) + 500);
}
