import type { LoginDomainResponse } from '@keycard/contract/api';
import type { PasskeyMode } from '@keycard/contract/passkeys';
import { signInApi } from '@keycard/contract/sign-in-api';
import { apiRequest } from './api.ts';
import type { Branding } from './branding.tsx';

let asked: Promise<PasskeyMode> | undefined;

/**
 * The tenant's passkey setting (docs/passkeys.md): from the page's branding, else from this
 * host's login-domain answer (asked once per page, where the server's first paint did not
 * carry it). Unknown reads as 'off': a password still signs in.
 */
export function passkeyModeOf(branding: Branding | null): Promise<PasskeyMode> {
  if (!branding) return Promise.resolve('off');
  if (branding.passkeys) return Promise.resolve(branding.passkeys);
  asked ??= apiRequest<LoginDomainResponse>('GET', signInApi.loginDomain(window.location.hostname))
    .then((answer) => answer.tenant.passkeys)
    .catch((): PasskeyMode => 'off');
  return asked;
}
