import { type Locale, locales, paths } from '@keycard/contract';
import type { Kysely } from 'kysely';
import { type Config, publicOrigin } from '../../platform/config.ts';
import type { Database } from '../../platform/db/schema.ts';
import { enqueueMessage } from '../../platform/messaging/outbox.ts';
import {
  type AccountMailKind,
  accountMailTemplates,
  renderAccountMail,
} from '../../platform/messaging/templates/account-mail.ts';
import type { TenantContext } from '../tenants/index.ts';

function localeOf(value: string): Locale {
  return (locales as readonly string[]).includes(value) ? (value as Locale) : 'en';
}

/**
 * The link a mail carries: always on the tenant's own login domain, in the user's language
 * (langCode), so the page opens in the language the mail was written in.
 */
export function accountLink(
  config: Config,
  tenant: TenantContext,
  kind: AccountMailKind,
  token: string,
  user: { email: string; locale: string },
): string {
  const page = {
    activation: paths.activate,
    reset: paths.resetPasswordUpdate,
    verifyEmail: paths.verifyEmail,
  }[kind];
  const url = new URL(page, `${publicOrigin(config, tenant.loginDomain)}/`);
  url.searchParams.set('token', token);
  if (kind === 'reset') url.searchParams.set('email', user.email);
  url.searchParams.set('langCode', localeOf(user.locale));
  return url.href;
}

/**
 * Invariant 7: renders the mail and commits it to the outbox with the caller's transaction,
 * so the mail exists if and only if the token it carries does. Kick the worker after commit.
 */
export async function queueAccountMail(
  trx: Kysely<Database>,
  config: Config,
  tenant: TenantContext,
  input: { kind: AccountMailKind; token: string; user: { email: string; locale: string } },
  now: number,
): Promise<string> {
  const content = await renderAccountMail({
    kind: input.kind,
    locale: localeOf(input.user.locale),
    theme: tenant.theme,
    origin: publicOrigin(config, tenant.loginDomain),
    link: accountLink(config, tenant, input.kind, input.token, input.user),
  });
  return enqueueMessage(
    trx,
    {
      tenantCode: tenant.code,
      channel: 'email',
      recipient: input.user.email,
      template: accountMailTemplates[input.kind],
      content,
    },
    now,
  );
}
