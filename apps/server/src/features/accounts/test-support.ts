import type { Locale } from '@keycard/contract';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { EmailContent } from '../../platform/messaging/message.types.ts';
import { runCli } from '../../surfaces/cli/cli.ts';
import { demoTenants } from '../../surfaces/seed/demo.ts';
import type { TestApp } from '../../test/helper.ts';
import { upsertTenant } from '../tenants/tenant.admin.ts';
import type { TenantContext, TenantSettings } from '../tenants/tenant.types.ts';
import { createUser } from './user.repository.ts';

/** Test helpers for the lifecycle API tests: mails from the outbox table, tenants, users. */

export interface StoredMail extends EmailContent {
  id: string;
  tenant: string;
  to: string;
  template: string;
  status: string;
}

export async function mailsTo(t: TestApp, email: string): Promise<StoredMail[]> {
  const rows = await t.services.db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', '=', email.toLowerCase())
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    tenant: row.tenant_code,
    to: row.recipient,
    template: row.template,
    status: row.status,
    ...(JSON.parse(row.payload) as EmailContent),
  }));
}

export async function lastMailTo(t: TestApp, email: string, template?: string): Promise<StoredMail> {
  const mails = (await mailsTo(t, email)).filter((m) => !template || m.template === template);
  expect(mails.length, `a ${template ?? ''} mail to ${email}`).toBeGreaterThan(0);
  return mails[0]!;
}

/** The link a mail's plain text carries (the HTML button carries the same one). */
export function linkIn(mail: EmailContent): URL {
  const match = mail.text.match(/https?:\/\/\S+/);
  expect(match, 'a link in the mail').not.toBeNull();
  return new URL(match![0]);
}

export function tokenIn(mail: EmailContent): string {
  return linkIn(mail).searchParams.get('token')!;
}

export async function tenantOf(t: TestApp, code = 'grand-hotel'): Promise<TenantContext> {
  return (await t.services.tenants.byCode(code))!;
}

/** Changes a demo tenant's settings (and drops the cached tenant). */
export async function setTenantSettings(
  t: TestApp,
  settings: Partial<TenantSettings>,
  code = 'grand-hotel',
): Promise<void> {
  const definition = demoTenants.find((tenant) => tenant.code === code)!;
  await upsertTenant(t.services.db, { ...definition, settings });
  t.services.tenants.invalidate();
}

let counter = 0;
/** A unique address on the demo domain, so tests in one app never share an account. */
export function uniqueEmail(prefix: string, domain = 'grand-hotel.test'): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}@${domain}`;
}

export async function activeUser(
  t: TestApp,
  email: string,
  password: string,
  options: { tenantCode?: string; locale?: Locale; emailVerificationRequired?: boolean } = {},
) {
  return createUser(
    t.services.db,
    {
      tenantCode: options.tenantCode ?? 'grand-hotel',
      email,
      type: 'staff',
      locale: options.locale ?? 'en',
      status: 'active',
      password,
      emailVerified: !options.emailVerificationRequired,
      emailVerificationRequired: options.emailVerificationRequired ?? false,
    },
    t.clock.now(),
  );
}

/** Runs a `keycard` command against a test app's database, configuration and clock. */
export async function runCliOn(
  t: TestApp,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    database: t.services.database,
    config: t.config,
    now: () => t.clock.now(),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * Makes the outbox refuse one recipient's messages (a trigger, on either engine): the database
 * failing at a change's last write. Answers what undoes it.
 */
export async function refuseMailTo(t: TestApp, email: string): Promise<() => Promise<void>> {
  const recipient = email.toLowerCase().replaceAll("'", "''");
  const statements =
    t.services.database.engine === 'sqlite'
      ? {
          create: [
            `CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox WHEN NEW.recipient = '${recipient}'
              BEGIN SELECT RAISE(ABORT, 'refused'); END`,
          ],
          drop: ['DROP TRIGGER refuse_mail'],
        }
      : {
          create: [
            `CREATE FUNCTION refuse_mail() RETURNS trigger LANGUAGE plpgsql AS $$
              BEGIN IF NEW.recipient = '${recipient}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`,
            'CREATE TRIGGER refuse_mail BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION refuse_mail()',
          ],
          drop: ['DROP TRIGGER refuse_mail ON outbox', 'DROP FUNCTION refuse_mail()'],
        };
  for (const statement of statements.create) await sql.raw(statement).execute(t.services.db);
  return async () => {
    for (const statement of statements.drop) await sql.raw(statement).execute(t.services.db);
  };
}

/**
 * What a sign-in leaves of an account: its sign-in codes, its sign-in entries in the recent
 * activity and its new-browser mails, counted.
 */
export async function signInTrail(
  t: TestApp,
  email: string,
): Promise<{ codes: number; signIns: number; mails: number }> {
  const { db } = t.services;
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
  const codes = await db
    .selectFrom('one_time_tokens')
    .select('id')
    .where('user_id', '=', user.id)
    .where('purpose', '=', 'LOGIN_CODE')
    .execute();
  const signIns = await db
    .selectFrom('account_activity')
    .select('id')
    .where('user_id', '=', user.id)
    .where('kind', '=', 'sign-in')
    .execute();
  const mails = (await mailsTo(t, email)).filter((mail) => mail.template === 'security.new-browser-sign-in');
  return { codes: codes.length, signIns: signIns.length, mails: mails.length };
}
