import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { useBranding } from '../../lib/branding.tsx';
import { flowStorage, partnerIdentity } from '../../lib/storage.ts';
import { offerPasskeyNow } from '../passkeys/offer-decision.ts';
import { authenticatedApi } from './api.ts';
import { type HandOffFacts, routeForHandOffError } from './authenticated-errors.ts';

/** What /authenticated shows while the hand-off runs. */
export type HandOffView =
  | { kind: 'working' }
  | { kind: 'verifyEmail'; email: string }
  /** "Sign in faster next time with a passkey" (features/passkeys); `next` goes on to the app. */
  | { kind: 'passkeyOffer'; next: () => void }
  /** The app asks for a passkey (acr_values phr, phrh); `next` authorizes again once confirmed. */
  | { kind: 'passkeyStepUp'; iid: string; next: () => void };

/**
 * SPEC §4 'Authenticated page', evaluated in order; a refused step is routed by its code
 * (authenticated-errors.ts). After a password sign-in, before the hand-off, the passkey offer
 * may come (features/passkeys/offer-decision.ts); an app asking for a phishing-resistant
 * sign-in gets the passkey step-up, then the same request is finished.
 */
export function useAuthenticatedFlow(): HandOffView {
  const navigate = useNavigate();
  const branding = useBranding();
  const started = useRef(false);
  const [view, setView] = useState<HandOffView>({ kind: 'working' });

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const facts: HandOffFacts = {
      email: null,
      iid: flowStorage.get(storageKeys.iid),
      redirectUri: flowStorage.get(storageKeys.redirectUri),
    };
    let redirectUri = '';

    const fail = (caught: unknown) => {
      const outcome = routeForHandOffError(caught, facts);
      if ('stepUp' in outcome) {
        setView({ kind: 'passkeyStepUp', iid: outcome.stepUp, next: goOn });
        return;
      }
      navigate(outcome.to, { replace: true, state: outcome.state });
    };
    const authorize = async () => {
      // No app asked and the tenant names no default one: the signed-in landing, not an error.
      if (!facts.iid && !redirectUri) {
        navigate(paths.signedIn, { replace: true });
        return;
      }
      const answer = await authenticatedApi.authorize(facts.iid ? { iid: facts.iid } : { redirectUri });
      flowStorage.remove(storageKeys.iid);
      flowStorage.remove(storageKeys.redirectUri);
      window.location.assign(ownPageWithoutDeviceToken(answer.location, window.location.origin));
    };
    // After the offer or the step-up: the loader again while the app is handed the session.
    function goOn() {
      setView({ kind: 'working' });
      authorize().catch(fail);
    }

    (async () => {
      const session = await authenticatedApi.session();
      if (!session.exists) {
        navigate(paths.root, { replace: true });
        return;
      }
      const { identity } = session;
      facts.email = identity.email;
      if (identity.emailVerificationRequired) {
        setView({ kind: 'verifyEmail', email: identity.email });
        return;
      }
      redirectUri = flowStorage.get(storageKeys.redirectUri) ?? identity.defaultRedirectUri;
      if (
        identity.passwordExpiryInDays !== null &&
        identity.passwordChangeWarningInDays !== null &&
        identity.passwordExpiryInDays <= identity.passwordChangeWarningInDays &&
        !flowStorage.get(storageKeys.expiryAcknowledged)
      ) {
        const query = new URLSearchParams({
          passwordExpiryInDays: String(identity.passwordExpiryInDays),
          redirectUri,
        });
        navigate(`${paths.passwordWillExpire}?${query}`, { replace: true });
        return;
      }
      if (session.provider === 'authx') {
        await handOffToPartner(session.partnerCode);
        return;
      }
      if (await offerPasskeyNow(branding, session.provider)) {
        setView({ kind: 'passkeyOffer', next: goOn });
        return;
      }
      await authorize();
    })().catch(fail);
  }, [navigate, branding]);

  return view;
}

/**
 * SPEC §4 step 4: a session of the product's own auth (a partner sign-in) goes back to the
 * partner's app with a one-time code, not through the hosted identity service. The server
 * checks the partner identity token against the session and the redirect against the
 * registered ones, and answers where the code may go.
 */
async function handOffToPartner(partnerCode: string | null): Promise<void> {
  const identity = partnerIdentity.get();
  if (!partnerCode || !identity) throw new Error('partner identity token missing');
  const redirectUri = flowStorage.get(storageKeys.redirectUri);
  const answer = await authenticatedApi.generatePartnerCode(partnerCode, {
    token: identity.token,
    ...(redirectUri ? { redirectUri } : {}),
  });
  flowStorage.remove(storageKeys.redirectUri);
  const target = new URL(answer.redirectUri);
  // Registered addresses are http(s); anything else would run in this origin.
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error('redirect not http(s)');
  target.searchParams.set('tenantCode', answer.tenantCode);
  target.searchParams.set('code', answer.token);
  window.location.assign(target.href);
}

/**
 * SPEC §4's user-device-token is for apps: a redirect to one of the portal's own pages (the
 * account page, the signed-in page) leaves it out, so it never sits in this address bar, its
 * history or a shared link. An app's redirect keeps it.
 */
export function ownPageWithoutDeviceToken(location: string, ownOrigin: string): string {
  let url: URL;
  try {
    url = new URL(location, ownOrigin);
  } catch {
    return location;
  }
  if (url.origin !== ownOrigin || !url.searchParams.has('user-device-token')) return location;
  url.searchParams.delete('user-device-token');
  return url.href;
}
