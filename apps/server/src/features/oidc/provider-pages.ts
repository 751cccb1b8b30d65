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
