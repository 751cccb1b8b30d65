import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorCodes } from '@keycard/contract';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { AppError, assertThat } from '../../platform/shared/errors.ts';

export type Interaction = InstanceType<Provider['Interaction']>;

/** The request and answer of the browser at hand, as the provider reads its cookies from them. */
export interface BrowserExchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/**
 * The provider's pending interaction of this browser: the one its interaction cookie (signed,
 * set by the provider when it sent the browser to the portal) names, through the provider's
 * own `interactionDetails`. An interaction id learned elsewhere (a log, a shared link) is
 * worth nothing without that cookie. When the page names an id (`iid`), it must be the
 * cookie's: a page of an older request in the same browser does not act on a newer one.
 * A missing cookie, an interaction that ended or expired, or another id: `interaction.not_found`.
 */
export async function interactionOfBrowser(
  provider: Provider,
  browser: BrowserExchange,
  iid?: string,
): Promise<Interaction> {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(browser.req, browser.res);
  } catch (error) {
    if (error instanceof errors.SessionNotFound) throw new AppError(errorCodes.interactionNotFound);
    throw error;
  }
  assertThat(iid === undefined || interaction.uid === iid, errorCodes.interactionNotFound);
  return interaction;
}

/**
 * The earliest password step the app's request accepts (epoch ms), or null when any will do.
 * `prompt=login` asks for a sign-in after the request was made; `max_age` for one no older
 * than that many seconds at the time of the request (OpenID Connect Core §3.1.2.1). The
 * provider records the request in whole seconds (iat), so the request is taken to have been
 * made at the end of its second: a session from the same second is never mistaken for a
 * fresh one (no human enters a password within the second an app asked for it).
 */
export function earliestAcceptedAuthentication(interaction: Interaction): number | null {
  const requestedBy = (interaction.iat + 1) * 1000;
  const prompts = String(interaction.params.prompt ?? '').split(' ');
  let earliest: number | null = prompts.includes('login') ? requestedBy : null;
  const maxAge = Number(interaction.params.max_age);
  if (interaction.params.max_age !== undefined && Number.isFinite(maxAge) && maxAge >= 0) {
    const limit = requestedBy - maxAge * 1000;
    earliest = earliest === null ? limit : Math.max(earliest, limit);
  }
  return earliest;
}

/**
 * Completes this browser's pending interaction for an account whose Keycard session has
 * passed every required step (the caller checks that). Apps registered in a tenant are
 * first-party, so the requested scopes and claims are granted without a consent screen.
 * `authTime` (epoch ms) is the session's real password step, so the ID token's auth_time is
 * honest. The result is written by the provider (`interactionResult`) into the interaction
 * its cookie names; answers the provider's resume URL, which only the browser holding the
 * interaction's resume cookie can use.
 */
export async function finishInteraction(
  provider: Provider,
  browser: BrowserExchange,
  interaction: Interaction,
  login: { accountId: string; amr: string[]; acr?: string | undefined; authTime: number },
): Promise<string> {
  const { prompt, params } = interaction;
  const clientId = String(params.client_id);

  // A grant of another account or app is never reused: a fresh one is made for this one.
  let grant = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  if (!grant || grant.accountId !== login.accountId || grant.clientId !== clientId) {
    grant = new provider.Grant({ accountId: login.accountId, clientId });
  }
  const details = prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  // A new login (not an existing session) needs consent answered even when nothing is missing.
  if (prompt.name === 'login' && !details.missingOIDCScope && typeof params.scope === 'string') {
    grant.addOIDCScope(params.scope);
  }
  const grantId = await grant.save();

  // Exactly this outcome, nothing carried over from an earlier submission of the interaction.
  return writeOutcome(provider, browser, {
    login: {
      accountId: login.accountId,
      amr: login.amr,
      ...(login.acr ? { acr: login.acr } : {}),
      ts: Math.floor(login.authTime / 1000),
      remember: true,
    },
    consent: { grantId },
  });
}

/**
 * Ends this browser's pending interaction without a sign-in: the user went back to the app
 * (OpenID Connect Core §3.1.2.6). The provider answers the app's request with
 * `error=access_denied` and its `state`, at the redirect URI it checked when the request
 * arrived, when the browser follows the resume URL answered here; never anywhere else.
 */
export function abortInteraction(provider: Provider, browser: BrowserExchange): Promise<string> {
  return writeOutcome(provider, browser, {
    error: 'access_denied',
    error_description: 'The user went back to the application without signing in.',
  });
}

async function writeOutcome(
  provider: Provider,
  browser: BrowserExchange,
  result: Parameters<Provider['interactionResult']>[2],
): Promise<string> {
  try {
    return await provider.interactionResult(browser.req, browser.res, result, {
      mergeWithLastSubmission: false,
    });
  } catch (error) {
    // It ended or expired between reading it and writing its outcome.
    if (error instanceof errors.SessionNotFound) throw new AppError(errorCodes.interactionNotFound);
    throw error;
  }
}

/** The name an app is shown by on the portal: its registered client name, else its id. */
export async function clientNameOf(provider: Provider, interaction: Interaction): Promise<string> {
  const clientId = String(interaction.params.client_id);
  const client = await provider.Client.find(clientId);
  return client?.clientName ?? clientId;
}
