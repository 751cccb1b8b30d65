import { useState } from 'react';
import { createPasskey } from '../../lib/webauthn.ts';
import { passkeysApi } from './api.ts';
import { type PasskeyProblem, passkeyProblem } from './passkey-errors.ts';

/** Problems after which trying again makes no sense here: the offer only lets the person go on. */
const final: ReadonlySet<PasskeyProblem> = new Set(['exists', 'limit', 'signInAgain', 'unsupported']);

/**
 * The offer's state and actions: create a passkey (the server's options, the browser's
 * ceremony, the new credential stored for this domain), or go on without one.
 */
export function usePasskeyOffer() {
  const [problem, setProblem] = useState<PasskeyProblem | null>(null);
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState(false);

  async function create(): Promise<void> {
    if (pending) return;
    setPending(true);
    setProblem(null);
    try {
      const { options } = await passkeysApi.registrationOptions();
      const credential = await createPasskey(options);
      await passkeysApi.register(credential);
      setCreated(true);
    } catch (caught) {
      setProblem(passkeyProblem(caught));
    } finally {
      setPending(false);
    }
  }

  return { problem, pending, created, canCreate: problem === null || !final.has(problem), create };
}
