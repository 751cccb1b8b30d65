import type { Locale } from '@keycard/contract';
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
