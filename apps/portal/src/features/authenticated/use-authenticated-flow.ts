import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { flowStorage, partnerIdentity } from '../../lib/storage.ts';
import { authenticatedApi } from './api.ts';
import { type HandOffFacts, routeForHandOffError } from './authenticated-errors.ts';

/**
 * SPEC §4 'Authenticated page', evaluated in order; a refused step is routed by its code
 * (authenticated-errors.ts). Answers the e-mail to verify when the prompt is to be shown.
 */
export function useAuthenticatedFlow(): { verifyEmail: string | null } {
  const navigate = useNavigate();
  const started = useRef(false);
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const facts: HandOffFacts = { email: null, iid: flowStorage.get(storageKeys.iid) };
    (async () => {
      const session = await authenticatedApi.session();
      if (!session.exists) {
        navigate(paths.root, { replace: true });
        return;
      }
      const { identity } = session;
      facts.email = identity.email;
      if (identity.emailVerificationRequired) {
        setVerifyEmail(identity.email);
        return;
      }
      const redirectUri = flowStorage.get(storageKeys.redirectUri) ?? identity.defaultRedirectUri;
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
      const answer = await authenticatedApi.authorize(facts.iid ? { iid: facts.iid } : { redirectUri });
      flowStorage.remove(storageKeys.iid);
      flowStorage.remove(storageKeys.redirectUri);
      window.location.assign(answer.location);
    })().catch((caught: unknown) => {
      const { to, state } = routeForHandOffError(caught, facts);
      navigate(to, { replace: true, state });
    });
  }, [navigate]);

  return { verifyEmail };
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
