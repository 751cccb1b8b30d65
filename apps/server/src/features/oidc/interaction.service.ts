import type Provider from 'oidc-provider';

type Interaction = InstanceType<Provider['Interaction']>;

export function findInteraction(provider: Provider, iid: string): Promise<Interaction | undefined> {
  return provider.Interaction.find(iid);
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
 * Completes the provider's pending interaction for an account whose Keycard session has
 * passed every required step (the caller checks that). Apps registered in a tenant are
 * first-party, so the requested scopes and claims are granted without a consent screen.
 * `authTime` (epoch ms) is the session's real password step, so the ID token's auth_time is
 * honest. Answers the provider's resume URL, which only the browser holding the
 * interaction's resume cookie can use.
 */
export async function finishInteraction(
  provider: Provider,
  interaction: Interaction,
  login: { accountId: string; amr: string[]; authTime: number },
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

  interaction.result = {
    login: {
      accountId: login.accountId,
      amr: login.amr,
      ts: Math.floor(login.authTime / 1000),
      remember: true,
    },
    consent: { grantId },
  };
  // At least a second: the adapter keeps a zero time-to-live forever.
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  return interaction.returnTo;
}
