import { z } from 'zod';
import {
  adminApi,
  adminClientCreateRequest,
  adminClientParams,
  adminClientSchema,
  adminClientSecretResponse,
  adminClientUpdateRequest,
  adminDomainsRequest,
  adminEmptyResponse,
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
  adminPasskeyListResponse,
  adminPasskeyParams,
  adminPasskeyRemoveResponse,
  adminSecretAnswerRequest,
  adminSecretAnswerResponse,
  adminSecretQuestionResponse,
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
  auditChoicesQuery,
  auditChoicesResponse,
  auditEntrySchema,
  auditSearchQuery,
  auditSearchResponse,
} from './admin.ts';

/**
 * Every operation of the admin API (docs/admin-api.md), each once: its method, its path
 * (OpenAPI style, `{code}`, under `adminApi.base`), what its path, query and body take and what
 * it answers by status. The server's route table and the console's client both read this, so
 * no admin URL or answer type is written twice. Who may call an operation (its permission) is
 * the server's to say.
 */

export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A theme image slot: its operation takes the image's own bytes, not JSON. */
export type AdminImageSlot = 'logo' | 'favicon' | 'background';

export interface AdminOperationSpec {
  readonly method: AdminMethod;
  /** The full path, its parameters in braces: `/admin/api/v1/tenants/{code}`. */
  readonly path: string;
  readonly summary: string;
  /** One property per `{name}` of the path. */
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  /** A JSON body. */
  readonly body?: z.ZodType;
  /** Instead of `body`: an image of this slot, sent as its own bytes with its type. */
  readonly upload?: AdminImageSlot;
  /** The successful answers by status. */
  readonly responses: { readonly [status: number]: z.ZodType };
  /** `ndjson`: the answer is JSON lines, each one of the response schema (an export). */
  readonly format?: 'json' | 'ndjson';
}

export type AdminOperation = AdminOperationSpec & { readonly id: string };

/** A body some actions take: nothing to say but the path. */
export const adminEmptyRequest = z.strictObject({});

const v1 = <P extends string>(path: P) => `${adminApi.base}${path}` as const;

function defineOperations<const T extends Record<string, AdminOperationSpec>>(
  specs: T,
): { readonly [K in keyof T & string]: T[K] & { readonly id: K } } {
  const operations: Record<string, AdminOperation> = {};
  for (const [id, spec] of Object.entries(specs)) operations[id] = { ...spec, id };
  return operations as { readonly [K in keyof T & string]: T[K] & { readonly id: K } };
}

const userAction = (action: string, summary: string) =>
  ({
    method: 'POST',
    path: v1(`/tenants/{code}/users/{userId}/${action}`),
    summary,
    params: adminUserParams,
    body: adminEmptyRequest,
    responses: { 200: adminUserActionResponse },
  }) as const;

/**
 * In the server's table order: the role matrix test calls them in this order, on one tenant per
 * role, so the tenant's removal comes last.
 */
export const adminOperations = defineOperations({
  getMe: {
    method: 'GET',
    path: v1('/me'),
    summary: 'Who the token acts as: the operator, its e-mail address (people) and its permissions',
    responses: { 200: adminMeResponse },
  },
  listTenants: {
    method: 'GET',
    path: v1('/tenants'),
    summary: 'List tenants (a scoped operator sees its own)',
    responses: { 200: adminTenantListResponse },
  },
  createTenant: {
    method: 'POST',
    path: v1('/tenants'),
    summary: 'Create a tenant with its domains, theme, settings and clients',
    body: adminTenantCreateRequest,
    responses: { 201: adminTenantCreateResponse },
  },
  getTenant: {
    method: 'GET',
    path: v1('/tenants/{code}'),
    summary: 'Read a tenant: domains, theme, settings (no secret) and clients',
    params: adminTenantParams,
    responses: { 200: adminTenantSchema },
  },
  updateTenant: {
    method: 'PATCH',
    path: v1('/tenants/{code}'),
    summary: "Change a tenant's alias code, default redirect URI or login client",
    params: adminTenantParams,
    body: adminTenantPatchRequest,
    responses: { 200: adminTenantSchema },
  },
  replaceTenantDomains: {
    method: 'PUT',
    path: v1('/tenants/{code}/domains'),
    summary: "Replace a tenant's login domain and alias domains",
    params: adminTenantParams,
    body: adminDomainsRequest,
    responses: { 200: adminTenantSchema },
  },
  replaceTheme: {
    method: 'PUT',
    path: v1('/tenants/{code}/theme'),
    summary: "Replace a tenant's theme (colours, images, name, links)",
    params: adminTenantParams,
    body: adminThemeRequest,
    responses: { 200: adminTenantSchema },
  },
  uploadThemeLogo: {
    method: 'PUT',
    path: v1('/tenants/{code}/theme/logo'),
    summary: "Upload the theme's logo (svg, png, webp; at most 256 KiB): checked by content, SVG sanitised",
    params: adminTenantParams,
    upload: 'logo',
    responses: { 200: adminTenantSchema },
  },
  uploadThemeBackground: {
    method: 'PUT',
    path: v1('/tenants/{code}/theme/background'),
    summary:
      "Upload the theme's background image (svg, png, webp; at most 256 KiB): checked by content, SVG sanitised",
    params: adminTenantParams,
    upload: 'background',
    responses: { 200: adminTenantSchema },
  },
  uploadThemeFavicon: {
    method: 'PUT',
    path: v1('/tenants/{code}/theme/favicon'),
    summary:
      "Upload the theme's favicon (ico, png, svg, webp; at most 64 KiB): checked by content, SVG sanitised",
    params: adminTenantParams,
    upload: 'favicon',
    responses: { 200: adminTenantSchema },
  },
  updateTenantSettings: {
    method: 'PATCH',
    path: v1('/tenants/{code}/settings'),
    summary: "Change a tenant's settings (merged into the stored ones)",
    params: adminTenantParams,
    body: adminSettingsRequest,
    responses: { 200: adminTenantSchema },
  },
  createClient: {
    method: 'POST',
    path: v1('/tenants/{code}/clients'),
    summary: 'Create an OIDC client; a confidential one gets a secret, shown once',
    params: adminTenantParams,
    body: adminClientCreateRequest,
    responses: { 201: adminClientSecretResponse },
  },
  updateClient: {
    method: 'PATCH',
    path: v1('/tenants/{code}/clients/{clientId}'),
    summary:
      "Change a client's redirect and post-logout URIs, grant types or authentication method (a secret, when one is made, shown once)",
    params: adminClientParams,
    body: adminClientUpdateRequest,
    responses: { 200: adminClientSecretResponse },
  },
  rotateClientSecret: {
    method: 'POST',
    path: v1('/tenants/{code}/clients/{clientId}/secret'),
    summary: "Rotate a client's secret (the old one stops working); the new one is shown once",
    params: adminClientParams,
    body: adminEmptyRequest,
    responses: { 200: adminClientSecretResponse },
  },
  disableClient: {
    method: 'POST',
    path: v1('/tenants/{code}/clients/{clientId}/disable'),
    summary: 'Disable a client: its sign-ins and token requests are refused',
    params: adminClientParams,
    body: adminEmptyRequest,
    responses: { 200: adminClientSchema },
  },
  enableClient: {
    method: 'POST',
    path: v1('/tenants/{code}/clients/{clientId}/enable'),
    summary: 'Enable a disabled client again',
    params: adminClientParams,
    body: adminEmptyRequest,
    responses: { 200: adminClientSchema },
  },
  listPartners: {
    method: 'GET',
    path: v1('/tenants/{code}/partners'),
    summary: "List a tenant's SSO partners",
    params: adminTenantParams,
    responses: { 200: adminPartnerListResponse },
  },
  savePartner: {
    method: 'PUT',
    path: v1('/tenants/{code}/partners/{partnerCode}'),
    summary: 'Create or replace an SSO partner (docs/partners.md); owners only',
    params: adminPartnerParams,
    body: adminPartnerRequest,
    responses: { 200: adminPartnerResponse },
  },
  removePartner: {
    method: 'DELETE',
    path: v1('/tenants/{code}/partners/{partnerCode}'),
    summary: 'Remove an SSO partner with its account links; the sign-ins it opened end (owners only)',
    params: adminPartnerParams,
    responses: { 200: adminEmptyResponse },
  },
  listSigningKeys: {
    method: 'GET',
    path: v1('/tenants/{code}/signing-keys'),
    summary: "List a tenant's token signing keys (ids and dates; the newest signs)",
    params: adminTenantParams,
    responses: { 200: adminSigningKeyListResponse },
  },
  rotateSigningKey: {
    method: 'POST',
    path: v1('/tenants/{code}/signing-keys/rotate'),
    summary: 'Rotate the signing key: new tokens are signed with a new key, older ones still verify',
    params: adminTenantParams,
    body: adminEmptyRequest,
    responses: { 200: adminSigningKeyListResponse },
  },
  retireSigningKey: {
    method: 'DELETE',
    path: v1('/tenants/{code}/signing-keys/{kid}'),
    summary: 'Retire an older signing key (tokens it signed stop verifying); not the active one',
    params: adminSigningKeyParams,
    responses: { 200: adminSigningKeyListResponse },
  },
  searchUsers: {
    method: 'GET',
    path: v1('/tenants/{code}/users'),
    summary: 'Search accounts by the start of their e-mail address',
    params: adminTenantParams,
    query: adminUserSearchQuery,
    responses: { 200: adminUserListResponse },
  },
  inviteUser: {
    method: 'POST',
    path: v1('/tenants/{code}/users'),
    summary: 'Invite an account: created pending, with its activation mail',
    params: adminTenantParams,
    body: adminInviteRequest,
    responses: { 201: adminInviteResponse },
  },
  getUser: {
    method: 'GET',
    path: v1('/tenants/{code}/users/{userId}'),
    summary: 'Read an account',
    params: adminUserParams,
    responses: { 200: adminUserResponse },
  },
  resendActivation: userAction('resend-activation', 'Send a new activation mail to a pending account'),
  disableUser: userAction('disable', 'Disable an account; its sessions, grants and tokens end'),
  enableUser: userAction('enable', 'Enable a disabled account'),
  unlockUser: userAction('unlock', 'Lift a sign-in lockout'),
  resetUserMfa: userAction('reset-mfa', 'Remove every MFA factor; the next sign-in sets one up again'),
  endUserSessions: userAction('end-sessions', 'End every session, grant and token of the account'),
  listUserPasskeys: {
    method: 'GET',
    path: v1('/tenants/{code}/users/{userId}/passkeys'),
    summary: "List an account's passkeys: name, dates, synced or device-bound, domain",
    params: adminUserParams,
    responses: { 200: adminPasskeyListResponse },
  },
  removeUserPasskey: {
    method: 'DELETE',
    path: v1('/tenants/{code}/users/{userId}/passkeys/{passkeyId}'),
    summary: 'Remove a passkey of an account: it no longer signs in',
    params: adminPasskeyParams,
    responses: { 200: adminPasskeyRemoveResponse },
  },
  getSecretQuestion: {
    method: 'GET',
    path: v1('/tenants/{code}/users/{userId}/secret-question'),
    summary: 'The secret question the account chose (never its answer), for the help desk',
    params: adminUserParams,
    responses: { 200: adminSecretQuestionResponse },
  },
  checkSecretAnswer: {
    method: 'POST',
    path: v1('/tenants/{code}/users/{userId}/secret-question/check'),
    summary: "Check a caller's answer to the account's secret question (limited per operator and account)",
    params: adminUserParams,
    body: adminSecretAnswerRequest,
    responses: { 200: adminSecretAnswerResponse },
  },
  deleteUser: {
    method: 'DELETE',
    path: v1('/tenants/{code}/users/{userId}'),
    summary: 'Delete an account and everything kept for it (erasure)',
    params: adminUserParams,
    responses: { 200: adminUserActionResponse },
  },
  searchAudit: {
    method: 'GET',
    path: v1('/audit'),
    summary: 'Search the audit log, newest first',
    query: auditSearchQuery,
    responses: { 200: auditSearchResponse },
  },
  auditChoices: {
    method: 'GET',
    path: v1('/audit/choices'),
    summary: "The people, targets and actions the audit log's filters offer",
    query: auditChoicesQuery,
    responses: { 200: auditChoicesResponse },
  },
  exportAudit: {
    method: 'GET',
    path: v1('/audit/export'),
    summary: 'Export the audit log as JSON lines (application/x-ndjson), newest first',
    query: auditSearchQuery.omit({ cursor: true, limit: true }),
    responses: { 200: auditEntrySchema },
    format: 'ndjson',
  },
  listOperators: {
    method: 'GET',
    path: v1('/operators'),
    summary: 'List operators (people and machine clients) and their roles',
    responses: { 200: adminOperatorListResponse },
  },
  createMachineOperator: {
    method: 'POST',
    path: v1('/operators/clients'),
    summary: 'Create a machine operator: a client-credentials client with a role; its secret is shown once',
    body: adminMachineClientRequest,
    responses: { 201: adminMachineClientResponse },
  },
  inviteOperator: {
    method: 'POST',
    path: v1('/operators/people'),
    summary:
      'Invite a person as an operator: an account of the operator tenant (activation mail) with a role',
    body: adminOperatorInviteRequest,
    responses: { 201: adminOperatorInviteResponse },
  },
  updateOperator: {
    method: 'PATCH',
    path: v1('/operators/{id}'),
    summary: "Change an operator's role or tenants (the last owner keeps the role)",
    params: adminOperatorParams,
    body: adminOperatorPatchRequest,
    responses: { 200: adminOperatorResponse },
  },
  removeOperator: {
    method: 'DELETE',
    path: v1('/operators/{id}'),
    summary: "Remove an operator (a machine's client goes with it; not the last owner)",
    params: adminOperatorParams,
    responses: { 200: adminEmptyResponse },
  },
  deleteTenant: {
    method: 'DELETE',
    path: v1('/tenants/{code}'),
    summary:
      'Remove a tenant with its accounts (erased), clients, domains, partners and keys; the body repeats its code',
    params: adminTenantParams,
    body: adminTenantDeleteRequest,
    responses: { 200: adminTenantDeleteResponse },
  },
});

export type AdminOperationId = keyof typeof adminOperations;

type Input<S> = S extends z.ZodType ? z.input<S> : never;

/** What an operation's path takes, by name (`{ code, clientId }`). */
export type AdminParams<O extends AdminOperationSpec> = Input<O['params']>;
export type AdminQuery<O extends AdminOperationSpec> = Input<O['query']>;
/** An image to upload: its bytes and the type it declares. */
export interface AdminUpload {
  data: Blob;
  type: string;
}
export type AdminBody<O extends AdminOperationSpec> = O extends { upload: AdminImageSlot }
  ? AdminUpload
  : Input<O['body']>;
/** A successful answer, parsed: the union of its statuses' schemas. */
export type AdminAnswer<O extends AdminOperationSpec> = {
  [S in keyof O['responses']]: O['responses'][S] extends z.ZodType ? z.output<O['responses'][S]> : never;
}[keyof O['responses']];

/** The address part of a call: the path's parameters (when it has any) and the query. */
export type AdminAddress<O extends AdminOperationSpec> = (O extends { params: z.ZodType }
  ? { params: AdminParams<O> }
  : { params?: undefined }) &
  (O extends { query: z.ZodType } ? { query?: AdminQuery<O> } : { query?: undefined });

type AddressArgs<O extends AdminOperationSpec> = O extends { params: z.ZodType }
  ? [address: AdminAddress<O>]
  : [address?: AdminAddress<O>];

/** An address of any operation, unchecked: for code generic over operations (a client). */
export interface AdminLooseAddress {
  params?: { readonly [name: string]: unknown };
  query?: { readonly [name: string]: unknown };
}

/**
 * The address of a call: `adminUrl(adminOperations.getTenant, { params: { code: 'a b' } })` is
 * `/admin/api/v1/tenants/a%20b`. Each path parameter is encoded as one segment; a query value
 * left out, null or empty is not sent. A missing path parameter throws: a call never goes to
 * another address than its operation's.
 */
export function adminUrl<O extends AdminOperation>(operation: O, ...address: AddressArgs<O>): string {
  return formatAdminUrl(operation, address[0] ?? {});
}

/** `adminUrl` for code that holds an operation of no particular type; the same checks at run time. */
export function formatAdminUrl(operation: AdminOperation, address: AdminLooseAddress): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = address.params?.[name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new TypeError(`${operation.id}: no value for the path parameter ${name}`);
    }
    const text = String(value);
    if (text === '') throw new TypeError(`${operation.id}: the path parameter ${name} is empty`);
    return encodeURIComponent(text);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(address.query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    search.set(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** The Fastify route pattern of an operation: `/admin/api/v1/tenants/:code`. */
export function adminRoutePattern(operation: AdminOperationSpec): string {
  return operation.path.replace(/\{(\w+)\}/g, ':$1');
}

/** The status an operation answers on success (its one listed status, or the lowest). */
export function successStatus(operation: AdminOperationSpec): number {
  return Math.min(...Object.keys(operation.responses).map(Number));
}
