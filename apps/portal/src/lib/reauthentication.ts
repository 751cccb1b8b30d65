import { paths } from '@keycard/contract/paths';

/**
 * The marker of a login an app asked to be fresh (OIDC prompt=login or max_age): the browser
 * has a complete session, yet the password is asked again, so the login page must not
 * continue on that session. /authenticated sets it; the login flow reads it.
 */
const reauthenticationParam = 'reauth';

/** The password step for the app's pending request `iid`, with the marker. */
export function reauthenticationPath(iid: string): string {
  const query = new URLSearchParams({ iid, [reauthenticationParam]: 'true' });
  return `${paths.loginPassword}?${query}`;
}

export function isReauthentication(query: URLSearchParams): boolean {
  return query.get(reauthenticationParam) === 'true';
}
