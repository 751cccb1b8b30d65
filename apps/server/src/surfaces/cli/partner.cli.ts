import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  type PartnerConfig,
  partnerAlgorithms,
  partnerConfigSchema,
  partnerLinkingPolicies,
} from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  findPartner,
  listPartners,
  type Partner,
  removePartner,
  savePartner,
} from '../../features/partners/index.ts';
import { TenantDirectory } from '../../features/tenants/index.ts';
import { cliActor, recordAudit } from '../../platform/audit/audit.service.ts';
import type { Database } from '../../platform/db/schema.ts';
import { namesPrivateHost } from '../../platform/security/outbound.ts';

export const partnersUsage = `  keycard partners add --tenant <code> --partner <partnerCode> --issuer <iss>
                       (--jwks-uri <url> | --jwks-file <file.json>) [--name <display name>]
                       [--redirect-uri <uri> …] [--linking <${partnerLinkingPolicies.join('|')}>]
                       [--algorithm <${partnerAlgorithms.join('|')}> …] [--help-url <template>]
                       [--skip-mfa <true|false>]
      Registers a partner whose signed tokens sign users in (docs/partners.md). Defaults: the
      name is the partner code, linking link-verified-email, algorithms ${partnerAlgorithms.join(', ')}, no
      redirect URIs of its own (the tenant's are used), no help link, the tenant's MFA policy applies.
      The help URL may contain {email} and {partnerCode}.

  keycard partners update --tenant <code> --partner <partnerCode> [any option of add]
      Changes only what is given; a repeated option (--redirect-uri, --algorithm) replaces the list.

  keycard partners list --tenant <code>
  keycard partners show --tenant <code> --partner <partnerCode>
  keycard partners remove --tenant <code> --partner <partnerCode>
      Removal also forgets the partner's account links and ends its sign-ins.
`;

const subcommands = ['add', 'update', 'list', 'show', 'remove'] as const;
type Subcommand = (typeof subcommands)[number];

export class PartnerUsageError extends Error {}

export interface PartnerCliDeps {
  db: Kysely<Database>;
  tenantCode: string;
  now: number;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Whether --jwks-uri may be a private address (ALLOW_PRIVATE_OUTBOUND; security/outbound.ts). */
  allowPrivateOutbound: boolean;
  /**
   * The audit entry of an add, update or removal, written in the change's own transaction:
   * the change and its entry commit together or not at all.
   */
  audit: (trx: Kysely<Database>, before: Partner | null, after: Partner | null) => Promise<void>;
}

export function parsePartnerArgs(args: string[]) {
  const [subcommand, ...rest] = args;
  if (!subcommands.includes(subcommand as Subcommand)) {
    throw new PartnerUsageError(`partners takes one of ${subcommands.join(', ')}`);
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      tenant: { type: 'string' },
      partner: { type: 'string' },
      name: { type: 'string' },
      issuer: { type: 'string' },
      'jwks-uri': { type: 'string' },
      'jwks-file': { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      linking: { type: 'string' },
      algorithm: { type: 'string', multiple: true },
      'help-url': { type: 'string' },
      'skip-mfa': { type: 'string' },
    },
    strict: true,
  });
  const tenant = values.tenant?.trim();
  if (!tenant) throw new PartnerUsageError('--tenant is required');
  const partner = values.partner?.trim();
  if (subcommand !== 'list' && !partner) throw new PartnerUsageError('--partner is required');
  return { subcommand: subcommand as Subcommand, tenant, partner: partner ?? '', values };
}

type PartnerArgs = ReturnType<typeof parsePartnerArgs>;

function booleanOf(name: string, raw: string): boolean {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new PartnerUsageError(`--${name} takes true or false`);
}

/** The options given, as changes to a partner's configuration. */
function changesOf(values: PartnerArgs['values']): Partial<PartnerConfig> {
  const changes: Partial<PartnerConfig> = {};
  if (values.name !== undefined) changes.displayName = values.name;
  if (values.issuer !== undefined) changes.issuer = values.issuer;
  if (values['jwks-uri'] !== undefined && values['jwks-file'] !== undefined) {
    throw new PartnerUsageError('give --jwks-uri or --jwks-file, not both');
  }
  if (values['jwks-uri'] !== undefined) {
    changes.jwksUri = values['jwks-uri'];
    changes.jwks = null;
  }
  if (values['jwks-file'] !== undefined) {
    let text: string;
    try {
      text = readFileSync(values['jwks-file'], 'utf8');
    } catch {
      throw new PartnerUsageError(`--jwks-file ${values['jwks-file']} cannot be read`);
    }
    try {
      changes.jwks = JSON.parse(text);
    } catch {
      throw new PartnerUsageError(`--jwks-file ${values['jwks-file']} is not JSON`);
    }
    changes.jwksUri = null;
  }
  if (values['redirect-uri'] !== undefined) changes.redirectUris = values['redirect-uri'];
  if (values.linking !== undefined) changes.linking = values.linking as PartnerConfig['linking'];
  if (values.algorithm !== undefined) changes.algorithms = values.algorithm as PartnerConfig['algorithms'];
  if (values['help-url'] !== undefined)
    changes.helpUrlTemplate = values['help-url'] === 'null' ? null : values['help-url'];
  if (values['skip-mfa'] !== undefined) changes.skipMfa = booleanOf('skip-mfa', values['skip-mfa']);
  return changes;
}

/** What the contract refuses, as option names an operator typed. */
function problemsOf(error: z.ZodError): string {
  const options: Record<string, string> = {
    displayName: '--name',
    issuer: '--issuer',
    jwksUri: '--jwks-uri',
    jwks: '--jwks-file',
    algorithms: '--algorithm',
    linking: '--linking',
    redirectUris: '--redirect-uri',
    helpUrlTemplate: '--help-url',
    code: '--partner',
  };
  return error.issues
    .map((issue) => {
      const field = String(issue.path[0] ?? '');
      const expects =
        field === 'linking'
          ? `one of ${partnerLinkingPolicies.join(', ')}`
          : field === 'algorithms'
            ? `one or more of ${partnerAlgorithms.join(', ')}`
            : issue.message;
      return `${options[field] ?? field}: ${expects}`;
    })
    .join('\n');
}

function printable(partner: Partner): string {
  const { tenantCode, createdAt, updatedAt, ...config } = partner;
  return JSON.stringify(
    {
      tenant: tenantCode,
      ...config,
      createdAt: new Date(createdAt).toISOString(),
      updatedAt: new Date(updatedAt).toISOString(),
    },
    null,
    2,
  );
}

/**
 * keycard partners …: the partner registry of one tenant. Answers the exit code (0 done,
 * 1 refused); usage mistakes throw PartnerUsageError.
 */
export async function runPartnerCommand(parsed: PartnerArgs, deps: PartnerCliDeps): Promise<number> {
  const { db, tenantCode, now, out, err } = deps;
  const { subcommand, partner: code, values } = parsed;
  if (subcommand === 'list') {
    const partners = await listPartners(db, tenantCode);
    if (partners.length === 0) err(`No partners on ${tenantCode}.`);
    for (const partner of partners) {
      out(`${partner.code}\t${partner.displayName}\t${partner.issuer}\t${partner.linking}`);
    }
    return 0;
  }
  const existing = await findPartner(db, tenantCode, code);
  if (subcommand === 'show' || subcommand === 'remove') {
    if (!existing) {
      err(`No partner ${code} on ${tenantCode}.`);
      return 1;
    }
    if (subcommand === 'show') out(printable(existing));
    else {
      await removePartner(db, tenantCode, code, (trx) => deps.audit(trx, existing, null));
      out(`Removed partner ${code} from ${tenantCode}, with its account links.`);
    }
    return 0;
  }
  if (subcommand === 'add' && existing) {
    err(`Partner ${code} exists on ${tenantCode}; change it with keycard partners update.`);
    return 1;
  }
  if (subcommand === 'update' && !existing) {
    err(`No partner ${code} on ${tenantCode}; register it with keycard partners add.`);
    return 1;
  }
  const base: PartnerConfig = existing ?? {
    code,
    displayName: code,
    issuer: '',
    jwksUri: null,
    jwks: null,
    algorithms: [...partnerAlgorithms],
    linking: 'link-verified-email',
    redirectUris: [],
    helpUrlTemplate: null,
    skipMfa: false,
  };
  const { tenantCode: _tenant, createdAt: _created, updatedAt: _updated, ...current } = base as Partner;
  const checked = partnerConfigSchema.safeParse({ ...current, ...changesOf(values), code });
  if (!checked.success) {
    err(`The partner was not saved:\n${problemsOf(checked.error)}`);
    return 1;
  }
  // The key set address is fetched by Keycard's servers: never inside their network.
  if (!deps.allowPrivateOutbound && checked.data.jwksUri && namesPrivateHost(checked.data.jwksUri)) {
    err(
      `The partner was not saved:\n  jwksUri: a private, loopback or link-local address; the server does not fetch it`,
    );
    return 1;
  }
  await db.transaction().execute(async (trx) => {
    await savePartner(trx, tenantCode, checked.data, now);
    await deps.audit(trx, existing, await findPartner(trx, tenantCode, code));
  });
  out(`${subcommand === 'add' ? 'Registered' : 'Updated'} partner ${code} on ${tenantCode}.`);
  return 0;
}

/**
 * keycard partners … as the `keycard` command runs it: the tenant found by its code, and every
 * add, update and removal in the audit log, in the change's own transaction.
 */
export async function runPartnersCli(
  parsed: PartnerArgs,
  deps: Omit<PartnerCliDeps, 'tenantCode' | 'audit'>,
): Promise<number> {
  const tenant = await new TenantDirectory(deps.db).byCode(parsed.tenant);
  if (!tenant) {
    deps.err(`No tenant with the code ${parsed.tenant}.`);
    return 1;
  }
  const plain = (partner: Partner | null) => {
    if (!partner) return null;
    const { tenantCode: _t, createdAt: _c, updatedAt: _u, ...fields } = partner;
    return fields as Record<string, unknown>;
  };
  return runPartnerCommand(parsed, {
    ...deps,
    tenantCode: tenant.code,
    audit: (trx, before, after) =>
      recordAudit(
        trx,
        cliActor,
        {
          tenant: tenant.code,
          action: `partner.${parsed.subcommand === 'add' ? 'create' : parsed.subcommand}`,
          target: { kind: 'partner', id: parsed.partner },
          before: plain(before),
          after: plain(after),
        },
        deps.now,
      ),
  });
}
