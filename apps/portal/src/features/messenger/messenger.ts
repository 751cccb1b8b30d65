import type { MessengerConfig } from '@keycard/contract/messenger';
import { paths } from '@keycard/contract/paths';
import { signInApi } from '@keycard/contract/sign-in-api';
import { apiRequest } from '../../lib/api.ts';
import { createIntercomWidget } from './intercom-widget.ts';
import type { MessengerWidget } from './messenger-widget.ts';
import { createStandinWidget } from './standin-widget.ts';

/**
 * The screens the widget may show on. A list of what is allowed rather than of what is not,
 * so a new screen stays quiet until someone decides otherwise. Left out on purpose: every
 * password and code screen (login password step, activation, registration, new password,
 * expired password, MFA), screens whose address carries a token or a code (e-mail
 * verification, partner sign-in, the code exchange), the signed-in hand-over (it may show
 * the user's address) and the OIDC one, and sign-out.
 */
const widgetScreens = new Set<string>(
  [
    paths.root,
    paths.login,
    paths.resetPassword,
    paths.resetPasswordSent,
    paths.activateSent,
    paths.error,
    paths.accountDisabled,
    paths.activateExpired,
    paths.verifyExpired,
    paths.passwordWillExpire,
  ].map(normalise),
);

function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

let config: Promise<MessengerConfig | null> | undefined;
let widget: MessengerWidget | null | undefined;
let booted = false;
let latest = '';

function loadConfig(): Promise<MessengerConfig | null> {
  config ??= apiRequest<MessengerConfig>('GET', signInApi.messenger).catch(() => {
    // A failed look-up only means no widget this time; the next navigation asks again.
    config = undefined;
    return null;
  });
  return config;
}

/** The tenant's widget when this page's host is one of its supported domains, else null. */
function widgetFor(current: MessengerConfig): MessengerWidget | null {
  const { provider, appId, scriptUrl, domains } = current;
  if (!provider || !appId || !scriptUrl) return null;
  if (!domains.includes(window.location.hostname.toLowerCase())) return null;
  const options = { appId, scriptUrl };
  return provider === 'intercom' ? createIntercomWidget(options) : createStandinWidget(options);
}

/**
 * Called after each completed navigation (SPEC §1: the widget starts after navigation, on
 * supported domains): boots the widget on a screen that may show it, updates it on the next
 * ones, and shuts it down on a password or code screen and on sign-out.
 */
export async function followNavigation(pathname: string): Promise<void> {
  latest = normalise(pathname);
  const current = await loadConfig();
  if (!current) return;
  widget ??= widgetFor(current);
  if (!widget) return;
  if (!widgetScreens.has(latest)) {
    if (booted) widget.shutdown();
    booted = false;
    return;
  }
  if (booted) widget.update();
  else widget.boot();
  booted = true;
}
