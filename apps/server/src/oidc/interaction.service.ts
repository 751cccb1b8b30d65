import type Provider from 'oidc-provider';

/**
 * Completes the provider's pending interaction for an account whose Keycard session has
 * passed every required step (the caller checks that). Apps registered in a tenant are
 * first-party, so the requested scopes and claims are granted without a consent screen.
 * Answers the provider's resume URL, which only the browser holding the interaction's
 * resume cookie can use.
 */
export async function finishInteraction(
  provider: Provider,
  iid: string,
  login: { accountId: string; amr: string[] },
): Promise<string | null> {
  const interaction = await provider.Interaction.find(iid);
  if (!interaction) return null;
  const { prompt, params } = interaction;
  const clientId = String(params.client_id);

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
    login: { accountId: login.accountId, amr: login.amr, remember: true },
    consent: { grantId },
  };
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}
