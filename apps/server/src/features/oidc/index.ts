/** The oidc feature's public face: what other features and the surfaces may use. */

export type { BrowserExchange } from './interaction.service.ts';
export { interactionOfBrowser } from './interaction.service.ts';
export { isBrowserRoute, unavailableBody, unavailableCode, unavailableHeaders } from './provider-outage.ts';
export type { ProviderPageRenderer } from './provider-pages.ts';
export { portOnlyRedirectMismatch } from './provider-pages.ts';
export { ProviderRegistry } from './provider-registry.ts';
export {
  abortAuthorization,
  authorizeSession,
  completeSignIn,
  describeInteraction,
  endSignIn,
} from './sign-in.service.ts';
