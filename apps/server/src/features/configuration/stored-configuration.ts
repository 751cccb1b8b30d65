import { type ClientConfig, compactThemeTexts, type TenantConfig, type Theme } from '@keycard/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { type ClientMetadata, defaultTenantSettings } from '../tenants/index.ts';
import { isObject } from './field-diff.ts';

/**
 * How stored configuration and the file's meet: a tenant's settings, theme and clients as the
 * planner compares them and the export writes them, and the file's values in the form they
 * are stored in.
 */

/** A date as the file writes it: the day alone when it is midnight UTC, else the instant. */
export function dateOf(ms: number | null): string | null {
  if (ms === null) return null;
  const iso = new Date(ms).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/**
 * A theme as the plan compares, stores and exports it: `texts` only when it overrides something,
 * a background image only when there is one.
 */
export function themeView(theme: Theme): Theme {
  const { texts, ...rest } = theme;
  // No background is written as none at all, so a file saying `background: ''` plans no change.
  const { background, ...images } = rest.images;
  const view = { ...rest, images: background ? { ...images, background } : images };
  const overrides = compactThemeTexts(texts);
  return overrides ? { ...view, texts: overrides } : view;
}

/** Stored settings merged one level deep, as updateTenantSettings merges them. */
export function mergeSettings(stored: Record<string, unknown>, patch: Record<string, unknown>) {
  const next = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    const before = stored[key];
    next[key] = isObject(value) && isObject(before) ? { ...before, ...value } : value;
  }
  return next;
}

/** What a tenant's settings amount to: the stored ones over the defaults. */
export function effectiveSettings(stored: Record<string, unknown>) {
  return {
    ...defaultTenantSettings,
    ...stored,
    mfa: { ...defaultTenantSettings.mfa, ...(stored.mfa as object | undefined) },
    captcha: { ...defaultTenantSettings.captcha, ...(stored.captcha as object | undefined) },
    messenger: { ...defaultTenantSettings.messenger, ...(stored.messenger as object | undefined) },
    securityMail: { ...defaultTenantSettings.securityMail, ...(stored.securityMail as object | undefined) },
  };
}

/** The client fields the file manages, as stored metadata reads. */
export function clientView(metadata: ClientMetadata) {
  return {
    redirectUris: metadata.redirect_uris ?? [],
    postLogoutRedirectUris: metadata.post_logout_redirect_uris ?? [],
    grantTypes: metadata.grant_types ?? ['authorization_code'],
    authMethod: metadata.token_endpoint_auth_method ?? 'client_secret_basic',
  };
}

/** A tenant's clients by id, the enabled ones (oidc_clients) and the disabled ones beside them. */
export async function storedClients(db: Kysely<Database>, code: string) {
  const read = async (table: 'oidc_clients' | 'disabled_clients', disabled: boolean) =>
    (await db.selectFrom(table).select('metadata').where('tenant_code', '=', code).execute()).map((row) => {
      const metadata = JSON.parse(row.metadata) as ClientMetadata;
      return [metadata.client_id, { metadata, disabled }] as const;
    });
  return new Map([...(await read('oidc_clients', false)), ...(await read('disabled_clients', true))]);
}

/** A client of the file as the provider's metadata, over what is stored of it (its secret left out). */
export function clientMetadata(client: ClientConfig, existing: ClientMetadata | undefined): ClientMetadata {
  const { client_secret: _secret, ...kept } = existing ?? ({} as Partial<ClientMetadata>);
  return {
    ...kept,
    client_id: client.clientId,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    grant_types: client.grantTypes,
    response_types: client.grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: client.authMethod,
  };
}

/**
 * A tenant's settings from the file as they are stored (a date as milliseconds), to be merged
 * into the stored ones; the captcha's secretEnv is left for the caller to resolve.
 */
export function settingsPatchOf(settings: TenantConfig['settings']): Record<string, unknown> {
  const { mfa, captcha, ...plain } = settings;
  const patch: Record<string, unknown> = { ...plain };
  if (mfa) {
    const { mandatoryFrom, ...rest } = mfa;
    patch.mfa = {
      ...rest,
      ...(mandatoryFrom === undefined
        ? {}
        : { mandatoryFrom: mandatoryFrom === null ? null : Date.parse(mandatoryFrom) }),
    };
  }
  if (captcha) {
    const { secretEnv: _secretEnv, ...rest } = captcha;
    patch.captcha = rest;
  }
  return patch;
}
