import { errorCodes, passkeyErrors } from '@keycard/contract/errors';
import { paths } from '@keycard/contract/paths';
import { type ErrorTable, lookupError } from '../../lib/api.ts';
import { reauthenticationPath } from '../../lib/reauthentication.ts';

/** What the hand-off knows when a step is refused. */
export interface HandOffFacts {
  /** The session's e-mail, once the session is read. */
  email: string | null;
  /** The app's pending request, if the sign-in came from one. */
  iid: string | null;
  /** The redirect the sign-in came with (`?redirectUri=`), if any. */
  redirectUri?: string | null;
}

export interface HandOffRoute {
  to: string;
  /** Router state for the target page (the login's password step takes its e-mail here). */
  state?: { email: string };
}

/** The app asks for a passkey this session has not used (acr_values phr, phrh): the step-up screen. */
export interface HandOffStepUp {
  stepUp: string;
}

/** Where a refusal goes, given what is known; null: the unknown-error page. */
type HandOffRow = (facts: HandOffFacts) => HandOffRoute | HandOffStepUp | null;

const unknownError: HandOffRow = () => null;

/**
 * SPEC §4/§8 for /authenticated, one row per code: where a refused hand-off goes. Anything
 * else (network failures included) goes to the unknown-error page.
 */
export const handOffErrors: ErrorTable<HandOffRow> = {
  network: unknownError,
  codes: {
    // The app asked for a fresh sign-in (prompt=login, max_age): the password step again, for
    // the session's account, then the same request is finished.
    [errorCodes.reauthenticationRequired]: ({ email, iid }) =>
      email && iid ? { to: reauthenticationPath(iid), state: { email } } : null,
    // The session ended meanwhile: start again, as without a session (SPEC §4 step 1).
    [errorCodes.sessionRequired]: () => ({ to: paths.root }),
    // The app asked for a phishing-resistant sign-in (acr_values phr, phrh) this session has
    // not made: a passkey confirms it on the step-up screen, then the same request is
    // finished (docs/passkeys.md). A password is never asked for it.
    [passkeyErrors.stepUpRequired]: ({ iid }) => (iid ? { stepUp: iid } : null),
    // No app asked and there is none to go to (a partner sign-in whose partner registers no
    // redirect, on a tenant with no default): signed in all the same, so the signed-in page.
    // A redirect the person came with that is refused stays an error.
    [errorCodes.redirectNotAllowed]: ({ iid, redirectUri }) =>
      iid || redirectUri ? null : { to: paths.signedIn },
  },
  otherwise: unknownError,
};

export function routeForHandOffError(caught: unknown, facts: HandOffFacts): HandOffRoute | HandOffStepUp {
  return lookupError(handOffErrors, caught)(facts) ?? { to: paths.error };
}
