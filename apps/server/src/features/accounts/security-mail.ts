import { type AccountFactorKind, type Locale, locales, paths } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { type Config, publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { enqueueMessage } from '../../platform/messaging/outbox.ts';
import {
  renderSecurityMail,
  type SecurityMailEvent,
  securityMailTemplate,
} from '../../platform/messaging/templates/security-mail.ts';
import { browserSummary } from '../sessions/index.ts';
import type { TenantContext } from '../tenants/index.ts';

export type { SecurityMailEvent } from '../../platform/messaging/templates/security-mail.ts';

function localeOf(value: string): Locale {
  return locales.find((locale) => locale === value) ?? 'en';
}

export interface SecurityMailRequest {
  tenant: TenantContext;
  user: { email: string; locale: string };
  event: SecurityMailEvent;
  /** The browser that made the change (its User-Agent header) and its address, when known. */
  userAgent?: string | null | undefined;
  ip?: string | null | undefined;
  /** passkey-added/removed: the passkey's name. */
  name?: string | undefined;
  /** factor-added/removed: which factor. */
  factor?: AccountFactorKind | undefined;
  /** partner-linked: the partner's display name. */
  partner?: string | undefined;
}

/**
 * The two links of a security mail, on the tenant's own login domain and in the account's
 * language. "This was not me" opens the reset request page for the account's address: it
 * carries no token and signs nobody in, so a forwarded or leaked mail gives nothing away —
 * the reset itself still goes through a link mailed to the address, and ends every session.
 */
export function securityMailLinks(
  config: Config,
  tenant: TenantContext,
  user: { email: string; locale: string },
): { resetLink: string; accountLink: string } {
  const origin = `${publicOrigin(config, tenant.loginDomain)}/`;
  const langCode = localeOf(user.locale);
  const reset = new URL(paths.resetPassword, origin);
  reset.searchParams.set('email', user.email);
  reset.searchParams.set('langCode', langCode);
  const account = new URL(paths.account, origin);
  account.searchParams.set('langCode', langCode);
  return { resetLink: reset.href, accountLink: account.href };
}

/**
 * Tells the account's owner about a change to how the account signs in (issue 18): a themed
 * mail in the account's language, enqueued in the outbox with the caller's transaction when it
 * is given one (invariant 7: the mail exists if and only if the change does). Kick the outbox
 * worker after the commit. Answers the outbox message's id.
 */
export async function sendSecurityMail(
  db: Kysely<Database>,
  config: Config,
  input: SecurityMailRequest,
  now: number,
): Promise<string> {
  const { tenant, user } = input;
  const content = renderSecurityMail({
    event: input.event,
    locale: localeOf(user.locale),
    theme: tenant.theme,
    origin: publicOrigin(config, tenant.loginDomain),
    ...securityMailLinks(config, tenant, user),
    at: now,
    browser: browserSummary(input.userAgent),
    ip: input.ip ?? null,
    name: input.name,
    factor: input.factor,
    partner: input.partner,
  });
  return enqueueMessage(
    db,
    {
      tenantCode: tenant.code,
      channel: 'email',
      recipient: user.email,
      template: securityMailTemplate(input.event),
      content,
    },
    now,
  );
}
