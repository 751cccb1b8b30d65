import type { KoaContextWithOIDC } from 'oidc-provider';
import type { TenantContext } from '../tenants/index.ts';

/**
 * The pages the provider shows in a browser (its error and logout pages), drawn by the web
 * surface as portal pages. The provider only calls them; it does not know how they look.
 */
export interface ProviderPageRenderer {
  /** The provider's error page: shown, never redirected (e.g. an unregistered redirect_uri). */
  renderError(
    ctx: KoaContextWithOIDC,
    tenant: TenantContext,
    out: { error?: string; error_description?: string },
  ): Promise<void>;
  /** The logout confirmation page around the provider's own form. */
  renderLogout(ctx: KoaContextWithOIDC, tenant: TenantContext, form: string): Promise<void>;
  /**
   * The error page for a request the provider never saw (an outage before it could be
   * reached), with the content security policy it needs (the provider's, with its nonce).
   */
  errorPageOutside(input: {
    tenant: TenantContext | null;
    code: string;
    path: string;
    query: Record<string, unknown>;
    chosenLocale: string | undefined;
    acceptLanguage: string | undefined;
  }): Promise<{ html: string; csp: string }>;
}

/**
 * A refused redirect that differs from a registered one only in its port (issue 19: a console
 * registered on port 3000 and a server on 4000): the registered address the request meant, so
 * the provider's error page can say so in words. Undefined when the request's redirect is not
 * such a near miss (then the page says only that the address is not registered). Only the
 * client's own registered addresses are named, never anything the request chose beyond them.
 */
export function portOnlyRedirectMismatch(
  requested: unknown,
  registered: readonly string[],
): { requested: string; registered: string } | undefined {
  if (typeof requested !== 'string' || registered.includes(requested)) return undefined;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return undefined;
  }
  const samePlace = (address: string) => {
    try {
      const url = new URL(address);
      return (
        url.protocol === asked.protocol &&
        url.hostname === asked.hostname &&
        url.port !== asked.port &&
        url.pathname === asked.pathname &&
        url.search === asked.search
      );
    } catch {
      return false;
    }
  };
  const match = registered.find(samePlace);
  return match ? { requested: asked.href, registered: match } : undefined;
}
