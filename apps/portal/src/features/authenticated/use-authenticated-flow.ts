import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { flowStorage } from '../../lib/storage.ts';
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
