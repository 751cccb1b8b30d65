import { type Locale, locales, type UserType, userTypes } from '@keycard/contract';
import { createRegistrationLink, inviteUser } from '../../features/accounts/index.ts';
import type { TenantContext } from '../../features/tenants/index.ts';
import { cliActor, recordAudit } from '../../platform/audit/audit.service.ts';
import type { Config } from '../../platform/config.ts';
import type { Db } from '../../platform/db/database.ts';

/** keycard invite and registration-link: accounts that do not exist yet. */
export const invitationsUsage = `  keycard invite --tenant <code> --email <address> --type <${userTypes.join('|')}> --locale <${locales.join('|')}>
      Creates the pending account and queues its activation mail (7 days valid). Inviting a
      pending address again sends a new link; the older one stops working.

  keycard registration-link --tenant <code> --email <address> [--type <type>] [--locale <xx>]
                            [--redirect-uri <registered uri>] [--days <n>]
      Prints a single-use registration link for that address (default 7 days valid). After
      registering, the user is signed in and continues to the redirect URI, which must be
      registered for the tenant.
`;

export interface InvitationInput {
  email: string;
  type: UserType;
  locale: Locale;
}

/** keycard invite: the pending account and its activation mail, audited with it. */
export async function runInvite(
  deps: { db: Db['kysely']; config: Config },
  tenant: TenantContext,
  input: InvitationInput,
  now: number,
  out: (line: string) => void,
): Promise<void> {
  const { email, type, locale } = input;
  const { created } = await inviteUser(deps, tenant, { email, type, locale }, now, (trx, user) =>
    recordAudit(
      trx,
      cliActor,
      {
        tenant: tenant.code,
        action: 'user.invite',
        target: { kind: 'user', id: user.id },
        after: { type, locale },
      },
      now,
    ),
  );
  out(
    `${created ? 'Invited' : 'Invited again'} ${email} to ${tenant.code} (${type}, ${locale}): the activation mail is queued.`,
  );
}

/** keycard registration-link: prints the link, and on stderr for whom and how long it works. */
export async function runRegistrationLink(
  deps: { db: Db['kysely']; config: Config },
  tenant: TenantContext,
  input: InvitationInput & { redirectUri: string | undefined; days: number | undefined },
  now: number,
  io: { out: (line: string) => void; err: (line: string) => void },
): Promise<void> {
  const { email, type, locale } = input;
  const { link, expiresAt } = await createRegistrationLink(
    deps,
    tenant,
    { email, type, locale, redirectUri: input.redirectUri, ttlDays: input.days },
    now,
  );
  io.out(link);
  io.err(`Single use, for ${email}, valid until ${new Date(expiresAt).toISOString()}.`);
}
