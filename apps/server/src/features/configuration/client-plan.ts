import { randomBytes } from 'node:crypto';
import { clientSecretMatches, hashClientSecret } from '../../platform/security/client-secret.ts';
import type { ClientMetadata } from '../tenants/index.ts';
import type { PlannedObject, TenantPlanContext } from './configuration.types.ts';
import { fieldPath } from './configuration-file.ts';
import { actionOf, diff } from './field-diff.ts';
import { clientMetadata, clientView, storedClients } from './stored-configuration.ts';

/** Clients: the file's fields replace the stored ones; the secret is kept unless the file says. */
export async function planClients(context: TenantPlanContext) {
  const { db, tenant, at, problems, secretFrom } = context;
  const stored = await storedClients(db, tenant.code);
  const inFile = new Set(tenant.clients.map((client) => client.clientId));
  if (!inFile.has(tenant.loginClientId) && (tenant.prune || !stored.has(tenant.loginClientId))) {
    problems.push(
      tenant.prune
        ? `${fieldPath(at('loginClientId'))}: no client ${tenant.loginClientId} in the file, and prune would remove it`
        : `${fieldPath(at('loginClientId'))}: no client ${tenant.loginClientId} in the file or on the tenant`,
    );
  }
  const login = tenant.clients.findIndex((client) => client.clientId === tenant.loginClientId);
  if (login >= 0 ? tenant.clients[login]!.disabled : stored.get(tenant.loginClientId)?.disabled) {
    problems.push(
      `${fieldPath(login >= 0 ? at('clients', login, 'disabled') : at('loginClientId'))}: ` +
        `the login client ${tenant.loginClientId} cannot be disabled`,
    );
  }
  const objects: PlannedObject[] = [];
  const changed: ClientMetadata[] = [];
  const disabled: string[] = [];
  const generatedSecrets = new Map<string, string>();
  for (const [position, client] of tenant.clients.entries()) {
    const found = stored.get(client.clientId);
    const existing = found?.metadata;
    if (found && context.onlyMissing) {
      objects.push({
        kind: 'client',
        tenant: tenant.code,
        id: client.clientId,
        action: 'unchanged',
        fields: [],
      });
      continue;
    }
    const metadata = clientMetadata(client, existing);
    let secretNote: string | undefined;
    if (client.authMethod !== 'none') {
      if (client.secretEnv) {
        const secret = secretFrom(at('clients', position, 'secretEnv'), client.secretEnv);
        if (secret !== null) metadata.client_secret = hashClientSecret(secret);
        if (secret === null || !clientSecretMatches(existing?.client_secret, secret))
          secretNote = `from $${client.secretEnv}`;
      } else if (existing?.client_secret) {
        metadata.client_secret = existing.client_secret;
      } else {
        // 256 bits, shown to the operator once after the write and never again.
        const secret = randomBytes(32).toString('base64url');
        metadata.client_secret = hashClientSecret(secret);
        generatedSecrets.set(client.clientId, secret);
        secretNote = 'generated, printed once when applied';
      }
    } else if (existing?.client_secret) {
      secretNote = 'removed (public client)';
    }
    const wantDisabled = client.disabled === true;
    const fields = diff(
      found ? { ...clientView(found.metadata), disabled: found.disabled } : null,
      // A new client is enabled unless the file says otherwise: no line for the default.
      { ...clientView(metadata), ...(found || wantDisabled ? { disabled: wantDisabled } : {}) },
    );
    if (secretNote) fields.push({ field: 'secret', secret: secretNote });
    const action = actionOf(Boolean(found), fields);
    objects.push({ kind: 'client', tenant: tenant.code, id: client.clientId, action, fields });
    if (action !== 'unchanged') {
      changed.push(metadata);
      if (wantDisabled) disabled.push(client.clientId);
    }
  }
  // With prune, the file is the whole list: a stored client it does not name is removed.
  const removed = tenant.prune ? [...stored.keys()].filter((id) => !inFile.has(id)).sort() : [];
  for (const id of removed) {
    const fields = diff(clientView(stored.get(id)!.metadata), {}).map(({ field, before }) => ({
      field,
      before,
    }));
    objects.push({ kind: 'client', tenant: tenant.code, id, action: 'remove', fields });
  }
  return { objects, changed, generatedSecrets, disabled, removed };
}
