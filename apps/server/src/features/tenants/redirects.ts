import { errorCodes, redirectTargetProblem, type TenantConfig } from '@keycard/contract';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/shared/errors.ts';
import { isAllowedRedirect } from './tenant.service.ts';
import type { TenantContext } from './tenant.types.ts';

/**
 * Invariant 2: where may a redirect go? To a URI registered for the tenant (exact match),
 * or to a page of the portal itself on this very origin. Nothing else.
 */
export function resolveRedirect(
  tenant: TenantContext,
  ownOrigin: string,
  uri: string | undefined | null,
): string | null {
  if (!uri) return null;
  // The directory drops registered targets that break the rule (tenant.service.ts); checked
  // again here, where the portal is handed a place to navigate to.
  if (isAllowedRedirect(tenant, uri)) return redirectTargetProblem(uri, { production: false }) ? null : uri;
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return null;
  }
  if (
    parsed.origin === ownOrigin &&
    !parsed.pathname.startsWith('/oidc') &&
    !parsed.pathname.startsWith('/api')
  ) {
    return parsed.href;
  }
  return null;
}

type FieldPath = (string | number)[];
type ClientTargets = Pick<TenantConfig['clients'][number], 'redirectUris' | 'postLogoutRedirectUris'>;

/** A client's redirect and post-logout URIs, each with its field path. */
function clientTargets(client: ClientTargets, at: FieldPath = []): [FieldPath, string][] {
  return [
    ...client.redirectUris.map((uri, index): [FieldPath, string] => [[...at, 'redirectUris', index], uri]),
    ...client.postLogoutRedirectUris.map((uri, index): [FieldPath, string] => [
      [...at, 'postLogoutRedirectUris', index],
      uri,
    ]),
  ];
}

function productionProblems(production: boolean, targets: [FieldPath, string][]) {
  if (!production) return [];
  return targets.flatMap(([path, uri]) => {
    const message = redirectTargetProblem(uri, { production: true });
    return message ? [{ path, message }] : [];
  });
}

/**
 * What production adds to the contract's redirect rule (which the schemas check everywhere):
 * http on `localhost` names is for development (RFC 8252 §8.3), while a loopback address stays
 * allowed for native apps (§7.3). Answers each refused target of a tenant (its default
 * redirect, its clients' URIs) by field path, for the configuration planner.
 */
export function productionRedirectProblems(
  production: boolean,
  tenant: Pick<TenantConfig, 'defaultRedirectUri' | 'clients'>,
): { path: FieldPath; message: string }[] {
  return productionProblems(production, [
    ...(tenant.defaultRedirectUri
      ? [[['defaultRedirectUri'], tenant.defaultRedirectUri] as [FieldPath, string]]
      : []),
    ...tenant.clients.flatMap((client, index) => clientTargets(client, ['clients', index])),
  ]);
}

/** The same for one client of the admin API: a 400 naming each refused field. */
export function assertProductionRedirects(config: Pick<Config, 'env'>, client: ClientTargets): void {
  const problems = productionProblems(config.env === 'production', clientTargets(client));
  if (problems.length === 0) return;
  const fields = Object.fromEntries(problems.map(({ path, message }) => [path.join('.'), message]));
  throw new AppError(errorCodes.validationFailed, { fields });
}
