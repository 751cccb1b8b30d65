import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import {
  type AdminPermission,
  adminApi,
  adminClientCreateRequest,
  adminClientParams,
  adminClientSchema,
  adminClientSecretResponse,
  adminDomainsRequest,
  adminEmptyResponse,
  adminErrors,
  adminInviteRequest,
  adminInviteResponse,
  adminMachineClientRequest,
  adminMachineClientResponse,
  adminMeResponse,
  adminOperatorInviteRequest,
  adminOperatorInviteResponse,
  adminOperatorListResponse,
  adminOperatorParams,
  adminOperatorPatchRequest,
  adminOperatorResponse,
  adminPartnerListResponse,
  adminPartnerParams,
  adminPartnerRequest,
  adminPartnerResponse,
  adminSettingsRequest,
  adminSigningKeyListResponse,
  adminSigningKeyParams,
  adminTenantCreateRequest,
  adminTenantCreateResponse,
  adminTenantDeleteRequest,
  adminTenantDeleteResponse,
  adminTenantListResponse,
  adminTenantParams,
  adminTenantPatchRequest,
  adminTenantSchema,
  adminThemeRequest,
  adminUserActionResponse,
  adminUserListResponse,
  adminUserParams,
  adminUserResponse,
  adminUserSearchQuery,
  apiErrorSchema,
  auditSearchQuery,
  auditSearchResponse,
  errorCodes,
  operatorTenantCode,
} from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AdminDeps } from '../../features/admin/admin.deps.ts';
import { createClient, rotateClientSecret, setClientDisabled } from '../../features/admin/clients.service.ts';
import {
  listTenantPartners,
  removeTenantPartner,
  savePartnerOf,
} from '../../features/admin/partners.service.ts';
import {
  listSigningKeys,
  retireSigningKey,
  rotateSigningKey,
} from '../../features/admin/signing-keys.service.ts';
import {
  changeTenant,
  createTenant,
  deleteTenant,
  getTenant,
  getTenantSummary,
  listTenants,
} from '../../features/admin/tenants.service.ts';
import {
  deleteUser,
  endUserSessions,
  getUser,
  inviteAccount,
  resendActivation,
  resetUserMfa,
  searchUsers,
  setUserDisabled,
  unlockUser,
} from '../../features/admin/users.service.ts';
import {
  checkImage,
  type ImageSlot,
  imageSlots,
  storeImage,
  uploadContentTypes,
} from '../../features/assets/assets.service.ts';
import {
  changeOperator,
  createMachineClient,
  describeOperator,
  inviteOperator,
  listOperators,
  removeOperator,
  repairOperatorTenant,
} from '../../features/operators/operators.service.ts';
import { exportAudit, searchAudit, systemActor } from '../../platform/audit/audit.service.ts';
import { ContractViolation } from '../../platform/http/contract.ts';
import { errorAnswer } from '../../platform/http/errors.ts';
import { hostnameOf } from '../../platform/http/host.ts';
import { parseInput } from '../../platform/http/validate.ts';
import { assertOutboundAddresses, assertOutboundUrl } from '../../platform/security/outbound.ts';
import { AppError } from '../../platform/shared/errors.ts';
import type { Services } from '../context.ts';
import { type AdminCaller, assertAllowed, authenticateCaller, scopeOf } from './admin-auth.ts';
import { adminLimits } from './admin-limits.ts';
import { adminOpenApiDocument } from './openapi.ts';

interface Input {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under /admin/api/v1, Fastify style (`:code`). */
  path: string;
  summary: string;
  /** Null: any operator with a valid token (what the token itself may see). */
  permission: AdminPermission | null;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The successful answer's schema; null for the JSON-lines export. */
  response: z.ZodType | null;
  status?: number;
  /** An image upload (raw body of an image type) rather than JSON. */
  upload?: ImageSlot;
  /**
   * Refused on the operator tenant, even to owners: its operators change through /operators
   * (which keeps an owner), the rest of it through `keycard apply`. A client, partner, setting
   * or account slipped into it through these routes could sign someone in as an operator.
   */
  operatorTenantManaged?: true;
  /**
   * Owners only: claims with effects beyond the tenant (a domain, with no proof of ownership
   * yet, could be another customer's).
   */
  ownerOnly?: true;
  run: (deps: AdminDeps, input: Input, caller: AdminCaller, reply: FastifyReply) => Promise<unknown>;
}

const emptyObject = z.strictObject({});

type TenantSettingsInput = z.infer<typeof adminSettingsRequest>;

/**
 * Addresses the server posts the captcha secret to, or pages load scripts from, are set by
 * owners only: a tenant admin could otherwise send the secret (and the verdicts) to a server
 * of its own, or reach addresses inside the network from Keycard's.
 */
function assertNoNewOutsideAddress(current: TenantSettingsInput, next: TenantSettingsInput): void {
  const changed = (before: unknown, after: unknown) => after !== undefined && after !== before;
  if (
    changed(current.captcha?.verifyUrl, next.captcha?.verifyUrl) ||
    changed(current.captcha?.scriptUrl, next.captcha?.scriptUrl) ||
    changed(current.messenger?.scriptUrl, next.messenger?.scriptUrl)
  ) {
    throw new AppError(adminErrors.forbidden);
  }
}

/**
 * Every route of the admin API, with who may call it (its permission, and the tenant in its
 * path for tenant-scoped operators) and what it takes and answers. The routes, the OpenAPI
 * document and the role tests are all made from this one table.
 */
export const adminRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: '/me',
    summary: 'Who the token acts as: the operator, its e-mail address (people) and its permissions',
    permission: null,
    response: adminMeResponse,
    run: async (_deps, _input, caller) => describeOperator(caller.operator),
  },
  {
    method: 'GET',
    path: '/tenants',
    summary: 'List tenants (a scoped operator sees its own)',
    permission: 'tenants.read',
    response: adminTenantListResponse,
    run: async (deps, _input, caller) => ({ tenants: await listTenants(deps.db, scopeOf(caller.operator)) }),
  },
  {
    method: 'POST',
    path: '/tenants',
    summary: 'Create a tenant with its domains, theme, settings and clients',
    permission: 'tenants.create',
    body: adminTenantCreateRequest,
    response: adminTenantCreateResponse,
    status: 201,
    run: (deps, { body }) => {
      const tenant = body as z.infer<typeof adminTenantCreateRequest>;
      assertOutboundAddresses(tenant, deps.config.allowPrivateOutbound);
      return createTenant(deps, tenant);
    },
  },
  {
    method: 'GET',
    path: '/tenants/:code',
    summary: 'Read a tenant: domains, theme, settings (no secret) and clients',
    permission: 'tenants.read',
    params: adminTenantParams,
    response: adminTenantSchema,
    run: (deps, { params }) => getTenant(deps.db, params.code!),
  },
  {
    method: 'PATCH',
    path: '/tenants/:code',
    operatorTenantManaged: true,
    summary: "Change a tenant's alias code, default redirect URI or login client",
    permission: 'tenants.write',
    params: adminTenantParams,
    body: adminTenantPatchRequest,
    response: adminTenantSchema,
    run: (deps, { params, body }) =>
      changeTenant(deps, params.code!, (tenant) => ({
        ...tenant,
        ...(body as z.infer<typeof adminTenantPatchRequest>),
      })),
  },
  {
    method: 'PUT',
    path: '/tenants/:code/domains',
    operatorTenantManaged: true,
    ownerOnly: true,
    summary: "Replace a tenant's login domain and alias domains",
    permission: 'tenants.write',
    params: adminTenantParams,
    body: adminDomainsRequest,
    response: adminTenantSchema,
    run: (deps, { params, body }) =>
      changeTenant(deps, params.code!, (tenant) => ({
        ...tenant,
        ...(body as z.infer<typeof adminDomainsRequest>),
      })),
  },
  {
    method: 'PUT',
    path: '/tenants/:code/theme',
    summary: "Replace a tenant's theme (colours, images, name, links)",
    permission: 'tenants.write',
    params: adminTenantParams,
    body: adminThemeRequest,
    response: adminTenantSchema,
    run: (deps, { params, body }) =>
      changeTenant(deps, params.code!, (tenant) => ({
        ...tenant,
        theme: body as z.infer<typeof adminThemeRequest>,
      })),
  },
  ...(['logo', 'favicon'] as const).map(
    (slot): AdminRoute => ({
      method: 'PUT',
      path: `/tenants/:code/theme/${slot}`,
      summary: `Upload the theme's ${slot} (${imageSlots[slot].types.join(', ')}; at most ${imageSlots[slot].maxBytes / 1024} KiB): checked by content, SVG sanitised`,
      permission: 'tenants.write',
      params: adminTenantParams,
      upload: slot,
      response: adminTenantSchema,
      run: async (deps, { params, body }, _caller, reply) => {
        const declared =
          uploadContentTypes[String(reply.request.headers['content-type']).split(';')[0]!.trim()];
        if (!declared || !Buffer.isBuffer(body)) throw new AppError(errorCodes.unsupportedMediaType);
        const image = checkImage(slot, declared, body);
        const code = params.code!;
        return changeTenant(deps, code, async (tenant) => {
          const url = await storeImage(deps.db, code, declared, image, deps.now);
          return { ...tenant, theme: { ...tenant.theme, images: { ...tenant.theme.images, [slot]: url } } };
        });
      },
    }),
  ),
  {
    method: 'PATCH',
    path: '/tenants/:code/settings',
    operatorTenantManaged: true,
    summary: "Change a tenant's settings (merged into the stored ones)",
    permission: 'tenants.write',
    params: adminTenantParams,
    body: adminSettingsRequest,
    response: adminTenantSchema,
    run: (deps, { params, body }, caller) =>
      changeTenant(deps, params.code!, (tenant) => {
        const settings = body as z.infer<typeof adminSettingsRequest>;
        if (caller.operator.role !== 'owner') assertNoNewOutsideAddress(tenant.settings, settings);
        assertOutboundAddresses({ settings }, deps.config.allowPrivateOutbound);
        return { ...tenant, settings };
      }),
  },
  {
    method: 'POST',
    path: '/tenants/:code/clients',
    operatorTenantManaged: true,
    summary: 'Create an OIDC client; a confidential one gets a secret, shown once',
    permission: 'tenants.write',
    params: adminTenantParams,
    body: adminClientCreateRequest,
    response: adminClientSecretResponse,
    status: 201,
    run: (deps, { params, body }) =>
      createClient(deps, params.code!, body as z.infer<typeof adminClientCreateRequest>),
  },
  {
    method: 'POST',
    path: '/tenants/:code/clients/:clientId/secret',
    operatorTenantManaged: true,
    summary: "Rotate a client's secret (the old one stops working); the new one is shown once",
    permission: 'tenants.write',
    params: adminClientParams,
    body: emptyObject,
    response: adminClientSecretResponse,
    run: (deps, { params }) => rotateClientSecret(deps, params.code!, params.clientId!),
  },
  {
    method: 'POST',
    path: '/tenants/:code/clients/:clientId/disable',
    operatorTenantManaged: true,
    summary: 'Disable a client: its sign-ins and token requests are refused',
    permission: 'tenants.write',
    params: adminClientParams,
    body: emptyObject,
    response: adminClientSchema,
    run: (deps, { params }) => setClientDisabled(deps, params.code!, params.clientId!, true),
  },
  {
    method: 'POST',
    path: '/tenants/:code/clients/:clientId/enable',
    operatorTenantManaged: true,
    summary: 'Enable a disabled client again',
    permission: 'tenants.write',
    params: adminClientParams,
    body: emptyObject,
    response: adminClientSchema,
    run: (deps, { params }) => setClientDisabled(deps, params.code!, params.clientId!, false),
  },
  {
    method: 'GET',
    path: '/tenants/:code/partners',
    summary: "List a tenant's SSO partners",
    permission: 'tenants.read',
    params: adminTenantParams,
    response: adminPartnerListResponse,
    run: async (deps, { params }) => ({ partners: await listTenantPartners(deps, params.code!) }),
  },
  {
    method: 'PUT',
    path: '/tenants/:code/partners/:partnerCode',
    operatorTenantManaged: true,
    summary: 'Create or replace an SSO partner (docs/partners.md); owners only',
    // A partner's keys, issuer, linking and skipMfa decide whom Keycard accepts as a user: a
    // scoped operator who could write them could sign in as any account of its tenant.
    permission: 'partners.write',
    params: adminPartnerParams,
    body: adminPartnerRequest,
    response: adminPartnerResponse,
    run: async (deps, { params, body }) => {
      const partner = body as z.infer<typeof adminPartnerRequest>;
      if (partner.code !== params.partnerCode) throw new AppError(adminErrors.partnerCodeMismatch);
      assertOutboundUrl('jwksUri', partner.jwksUri, deps.config.allowPrivateOutbound);
      return savePartnerOf(deps, params.code!, {
        ...partner,
        displayName: partner.displayName ?? partner.code,
      });
    },
  },
  {
    method: 'DELETE',
    path: '/tenants/:code/partners/:partnerCode',
    operatorTenantManaged: true,
    summary: 'Remove an SSO partner with its account links; the sign-ins it opened end (owners only)',
    permission: 'partners.write',
    params: adminPartnerParams,
    response: adminEmptyResponse,
    run: (deps, { params }) => removeTenantPartner(deps, params.code!, params.partnerCode!),
  },
  {
    method: 'GET',
    path: '/tenants/:code/signing-keys',
    summary: "List a tenant's token signing keys (ids and dates; the newest signs)",
    permission: 'tenants.read',
    params: adminTenantParams,
    response: adminSigningKeyListResponse,
    run: async (deps, { params }) => {
      await getTenantSummary(deps, params.code!);
      return { keys: await listSigningKeys(deps.db, params.code!) };
    },
  },
  {
    method: 'POST',
    path: '/tenants/:code/signing-keys/rotate',
    summary: 'Rotate the signing key: new tokens are signed with a new key, older ones still verify',
    permission: 'tenants.write',
    params: adminTenantParams,
    body: emptyObject,
    response: adminSigningKeyListResponse,
    run: async (deps, { params }) => {
      await getTenantSummary(deps, params.code!);
      const keys = await rotateSigningKey({ ...deps, encryptionKey: deps.encryptionKey }, params.code!);
      deps.tenants.invalidate(params.code!);
      return { keys };
    },
  },
  {
    method: 'DELETE',
    path: '/tenants/:code/signing-keys/:kid',
    summary: 'Retire an older signing key (tokens it signed stop verifying); not the active one',
    permission: 'tenants.write',
    params: adminSigningKeyParams,
    response: adminSigningKeyListResponse,
    run: async (deps, { params }) => {
      await getTenantSummary(deps, params.code!);
      const keys = await retireSigningKey(deps, params.code!, params.kid!);
      deps.tenants.invalidate(params.code!);
      return { keys };
    },
  },
  {
    method: 'GET',
    path: '/tenants/:code/users',
    summary: 'Search accounts by the start of their e-mail address',
    permission: 'users.read',
    params: adminTenantParams,
    query: adminUserSearchQuery,
    response: adminUserListResponse,
    run: async (deps, { params, query }) => {
      const { email, limit } = query as z.infer<typeof adminUserSearchQuery>;
      return { users: await searchUsers(deps, params.code!, email, limit) };
    },
  },
  {
    method: 'POST',
    path: '/tenants/:code/users',
    operatorTenantManaged: true,
    summary: 'Invite an account: created pending, with its activation mail',
    permission: 'users.write',
    params: adminTenantParams,
    body: adminInviteRequest,
    response: adminInviteResponse,
    status: 201,
    run: (deps, { params, body }) =>
      inviteAccount(deps, params.code!, body as z.infer<typeof adminInviteRequest>),
  },
  {
    method: 'GET',
    path: '/tenants/:code/users/:userId',
    summary: 'Read an account',
    permission: 'users.read',
    params: adminUserParams,
    response: adminUserResponse,
    run: async (deps, { params }) => ({ user: await getUser(deps, params.code!, params.userId!) }),
  },
  ...(
    [
      ['resend-activation', 'Send a new activation mail to a pending account', resendActivation],
      [
        'disable',
        'Disable an account; its sessions, grants and tokens end',
        (d, c, u) => setUserDisabled(d, c, u, true),
      ],
      ['enable', 'Enable a disabled account', (d, c, u) => setUserDisabled(d, c, u, false)],
      ['unlock', 'Lift a sign-in lockout', unlockUser],
      ['reset-mfa', 'Remove every MFA factor; the next sign-in sets one up again', resetUserMfa],
      ['end-sessions', 'End every session, grant and token of the account', endUserSessions],
    ] as Array<[string, string, (deps: AdminDeps, code: string, userId: string) => Promise<unknown>]>
  ).map(
    ([action, summary, run]): AdminRoute => ({
      method: 'POST',
      path: `/tenants/:code/users/:userId/${action}`,
      // An operator's account is disabled or enabled by removing or adding the operator.
      ...(action === 'disable' || action === 'enable' ? { operatorTenantManaged: true as const } : {}),
      summary,
      permission: 'users.write',
      params: adminUserParams,
      body: emptyObject,
      response: adminUserActionResponse,
      run: (deps, { params }) => run(deps, params.code!, params.userId!),
    }),
  ),
  {
    method: 'DELETE',
    path: '/tenants/:code/users/:userId',
    operatorTenantManaged: true,
    summary: 'Delete an account and everything kept for it (erasure)',
    permission: 'users.write',
    params: adminUserParams,
    response: adminUserActionResponse,
    run: (deps, { params }) => deleteUser(deps, params.code!, params.userId!),
  },
  {
    method: 'GET',
    path: '/audit',
    summary: 'Search the audit log, newest first',
    permission: 'audit.read',
    query: auditSearchQuery,
    response: auditSearchResponse,
    run: (deps, { query }, caller) =>
      searchAudit(deps.db, {
        ...(query as z.infer<typeof auditSearchQuery>),
        tenants: scopeOf(caller.operator).only,
        exceptTenants: scopeOf(caller.operator).except,
      }),
  },
  {
    method: 'GET',
    path: '/audit/export',
    summary: 'Export the audit log as JSON lines (application/x-ndjson), newest first',
    permission: 'audit.read',
    query: auditSearchQuery.omit({ cursor: true, limit: true }),
    response: null,
    run: async (deps, { query }, caller, reply) => {
      const scope = scopeOf(caller.operator);
      const filter = {
        ...(query as z.infer<typeof auditSearchQuery>),
        tenants: scope.only,
        exceptTenants: scope.except,
      };
      // Streamed a page at a time: a large log is never held in memory whole.
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', 'attachment; filename="keycard-audit.jsonl"')
        .send(Readable.from(exportAudit(deps.db, filter)));
    },
  },
  {
    method: 'GET',
    path: '/operators',
    summary: 'List operators (people and machine clients) and their roles',
    permission: 'operators.manage',
    response: adminOperatorListResponse,
    run: async (deps) => ({ operators: await listOperators(deps.db) }),
  },
  {
    method: 'POST',
    path: '/operators/clients',
    summary: 'Create a machine operator: a client-credentials client with a role; its secret is shown once',
    permission: 'operators.manage',
    body: adminMachineClientRequest,
    response: adminMachineClientResponse,
    status: 201,
    run: async (deps, { body }) => {
      const input = body as z.infer<typeof adminMachineClientRequest>;
      const { operator, secret } = await createMachineClient(deps, input, deps.now);
      deps.tenants.invalidate(operatorTenantCode);
      return { operator, clientId: input.clientId, secret };
    },
  },
  {
    method: 'POST',
    path: '/operators/people',
    summary:
      'Invite a person as an operator: an account of the operator tenant (activation mail) with a role',
    permission: 'operators.manage',
    body: adminOperatorInviteRequest,
    response: adminOperatorInviteResponse,
    status: 201,
    run: (deps, { body }) =>
      inviteOperator(deps, body as z.infer<typeof adminOperatorInviteRequest>, deps.now),
  },
  {
    method: 'PATCH',
    path: '/operators/:id',
    summary: "Change an operator's role or tenants (the last owner keeps the role)",
    permission: 'operators.manage',
    params: adminOperatorParams,
    body: adminOperatorPatchRequest,
    response: adminOperatorResponse,
    run: async (deps, { params, body }) => ({
      operator: await changeOperator(
        deps,
        params.id!,
        body as z.infer<typeof adminOperatorPatchRequest>,
        deps.now,
      ),
    }),
  },
  {
    method: 'DELETE',
    path: '/operators/:id',
    summary: "Remove an operator (a machine's client goes with it; not the last owner)",
    permission: 'operators.manage',
    params: adminOperatorParams,
    response: adminEmptyResponse,
    run: async (deps, { params }) => {
      await removeOperator(deps, params.id!, deps.now);
      deps.tenants.invalidate(operatorTenantCode);
      return {};
    },
  },
  // Last in the table: the role matrix test calls routes in this order, on one tenant per role.
  {
    method: 'DELETE',
    path: '/tenants/:code',
    operatorTenantManaged: true,
    ownerOnly: true,
    summary:
      'Remove a tenant with its accounts (erased), clients, domains, partners and keys; the body repeats its code',
    permission: 'tenants.create',
    params: adminTenantParams,
    body: adminTenantDeleteRequest,
    response: adminTenantDeleteResponse,
    run: (deps, { params, body }) =>
      deleteTenant(deps, params.code!, (body as z.infer<typeof adminTenantDeleteRequest>).confirm),
  },
];

/** Admin answers are checked against their contract outside production, as /api answers are. */
function checkAnswer(route: string, schema: z.ZodType, payload: unknown, status: number): void {
  const plain = JSON.parse(JSON.stringify(payload ?? null)) as unknown;
  const parsed = schema.safeParse(plain);
  if (!parsed.success) {
    throw new ContractViolation(`${route} answered ${status} off contract: ${parsed.error.message}`);
  }
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data ?? null)), plain)) {
    throw new ContractViolation(`${route} answered ${status} with fields its contract does not have`);
  }
}

/**
 * The admin API on the operator host only (ADMIN_DOMAIN): elsewhere every /admin path is a
 * 404, as if it did not exist. Bearer tokens only; the body limit is the server's (64 KiB).
 */
export async function adminApiRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { config } = services;
  const onAdminHost = (request: FastifyRequest) => hostnameOf(request.host) === config.adminDomain;

  app.addHook('onRequest', async (request, reply) => {
    if (!onAdminHost(request)) {
      const { status, body } = errorAnswer(new AppError(errorCodes.notFound));
      return reply.status(status).send(body);
    }
    reply.header('cache-control', 'no-store');
  });
  if (config.env !== 'production') {
    app.addHook('preSerialization', async (request, reply, payload) => {
      const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
      const schema = reply.statusCode >= 400 ? apiErrorSchema : request.routeOptions.config?.response;
      if (!schema) throw new ContractViolation(`${route} declares no response schema`);
      checkAnswer(route, schema, payload, reply.statusCode);
      return payload;
    });
  }

  // Theme images arrive as their own bytes; the slot's limit is checked after (256 KiB at most).
  app.addContentTypeParser(
    Object.keys(uploadContentTypes),
    { parseAs: 'buffer', bodyLimit: imageSlots.logo.maxBytes },
    (_request, body, done) => done(null, body),
  );

  // Nothing is created at start: a server without operators says how to make the first one.
  // An operator tenant made by an earlier version gets the console's addresses.
  app.addHook('onReady', async () => {
    await repairOperatorTenant({ db: services.db, config, actor: systemActor }, services.clock.now());
    const operators = await services.db.selectFrom('operators').select('id').limit(1).execute();
    if (operators.length === 0) {
      app.log.warn(
        { adminDomain: config.adminDomain },
        'no operator yet: the admin API lets nobody in until `keycard operators create-owner --email <address>` creates the first owner',
      );
    }
  });

  const document = adminOpenApiDocument(adminRoutes, config);
  app.get(
    adminApi.openApi,
    { config: { response: z.record(z.string(), z.unknown()) } },
    async () => document,
  );

  const callers = new WeakMap<FastifyRequest, AdminCaller>();
  const limits = adminLimits(services.limiter, config);
  for (const route of adminRoutes) {
    app.route({
      method: route.method,
      url: `${adminApi.base}${route.path}`,
      ...(route.response ? { config: { response: route.response } } : {}),
      // The token is checked before the body is read or parsed: without one, a request learns
      // nothing from how its body is judged and costs no parsing (a 401, never a 400 or 413).
      // Limits first (per address, and failed tokens per address, before the lookup), then
      // per operator once the token says who it is (admin-limits.ts).
      onRequest: async (request, reply) => {
        const now = services.clock.now();
        try {
          const charge = await limits.beforeAuthentication(request.ip, now);
          const caller = await authenticateCaller(services, request.headers.authorization).catch((error) => {
            // A full failed-token allowance refuses only tokens that fail: what others sent from
            // the same address (a shared NAT, or a forged one) never shuts out a valid token.
            if (!charge.charged && error instanceof AppError && error.code === adminErrors.unauthenticated) {
              throw charge.refusal;
            }
            reply.header('www-authenticate', 'Bearer realm="keycard-admin"');
            throw error;
          });
          if (charge.charged) await limits.authenticated(request.ip, now);
          await limits.forOperator(caller.operator.id, now);
          callers.set(request, caller);
        } catch (error) {
          const wait = error instanceof AppError ? error.fields?.retryAfterSeconds : undefined;
          if (wait && (error as AppError).code === adminErrors.rateLimited) reply.header('retry-after', wait);
          throw error;
        }
      },
      handler: async (request, reply) => {
        const caller = callers.get(request);
        if (!caller) throw new AppError(adminErrors.unauthenticated);
        const params = route.params ? parseInput(route.params, request.params) : {};
        const code = (params as { code?: string }).code;
        if (route.permission) assertAllowed(caller.operator, route.permission, code);
        if (route.ownerOnly && caller.operator.role !== 'owner') throw new AppError(adminErrors.forbidden);
        if (route.operatorTenantManaged && code === operatorTenantCode)
          throw new AppError(adminErrors.operatorTenantManaged);
        const query = (route.query ? parseInput(route.query, request.query) : {}) as Record<string, unknown>;
        const body = route.upload
          ? request.body
          : route.body
            ? parseInput(route.body, request.body)
            : undefined;
        const deps: AdminDeps = {
          db: services.db,
          engine: services.database.engine,
          encryptionKey: services.secrets.encryptionKey,
          config,
          tenants: services.tenants,
          limiter: services.limiter,
          actor: caller.actor,
          now: services.clock.now(),
        };
        const answer = await route.run(
          deps,
          { params: params as Record<string, string>, query, body },
          caller,
          reply,
        );
        if (reply.sent) return reply;
        return reply.status(route.status ?? 200).send(answer);
      },
    });
  }
  // Any other /admin address is nothing, on every host (never the portal's page).
  app.all('/admin/*', async () => {
    throw new AppError(errorCodes.notFound);
  });
}
