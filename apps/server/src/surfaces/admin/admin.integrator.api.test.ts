import { adminErrors, apiErrorSchema, auditChoicesResponse, auditSearchResponse } from '@keycard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { buildTestApp, engines, type TestApp } from '../../test/helper.ts';
import { adminCall, adminFixtures, operatorToken } from './admin.test-support.ts';

/** Issue 19, the integrator's first hour: tenants by name, clients edited, a readable audit log. */
describe.each(engines)('admin API for the integrator on %s', (engine) => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await buildTestApp(engine);
    owner = await operatorToken(t, 'integrator-owner', 'owner');
  });
  afterAll(() => t.close());
  const { tenantFor, invitedUser } = adminFixtures(
    () => t,
    () => owner,
  );

  /** Where the tenant's provider sends a browser asking to sign in with this client and redirect. */
  const authorize = async (code: string, clientId: string, redirectUri: string) => {
    await t.services.tenants.refresh();
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuZVsfEZ6Is',
      code_challenge_method: 'S256',
    });
    const answer = await t.app.inject({
      method: 'GET',
      url: `/oidc/auth?${query}`,
      headers: { host: `${code}.localhost:3000` },
    });
    return answer.statusCode;
  };

  it('lists tenants with their name, logo and colour', async () => {
    const answer = await adminCall(t.app, 'GET', '/tenants', { token: owner });
    expect(answer.statusCode).toBe(200);
    const grand = answer.json().tenants.find((tenant: { code: string }) => tenant.code === 'grand-hotel');
    expect(grand).toMatchObject({
      name: 'Grand Hotel Group',
      colour: expect.stringMatching(/^#[0-9a-f]{6}$/i),
    });
    expect(typeof grand.logo).toBe('string');
  });

  it('changes a client with the rules of its creation; the provider takes the new redirect and refuses the old', async () => {
    await tenantFor('edited');
    const path = '/tenants/edited/clients/edited-app';
    expect(await authorize('edited', 'edited-app', 'https://app.example.com/callback')).toBe(303);

    const fragment = await adminCall(t.app, 'PATCH', path, {
      token: owner,
      body: { redirectUris: ['https://app.example.com/back#here'] },
    });
    expect(fragment.statusCode).toBe(400);
    expect(apiErrorSchema.parse(fragment.json()).fields).toHaveProperty(['redirectUris.0']);
    const empty = await adminCall(t.app, 'PATCH', path, { token: owner, body: {} });
    expect(empty.statusCode).toBe(400);
    const unknown = await adminCall(t.app, 'PATCH', '/tenants/edited/clients/nobody', {
      token: owner,
      body: { redirectUris: ['https://app.example.com/x'] },
    });
    expect(apiErrorSchema.parse(unknown.json()).code).toBe(adminErrors.clientNotFound);

    const changed = await adminCall(t.app, 'PATCH', path, {
      token: owner,
      body: {
        redirectUris: ['https://app.example.com/new-callback'],
        postLogoutRedirectUris: ['https://app.example.com/bye'],
        grantTypes: ['authorization_code'],
      },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({
      client: {
        clientId: 'edited-app',
        redirectUris: ['https://app.example.com/new-callback'],
        postLogoutRedirectUris: ['https://app.example.com/bye'],
        grantTypes: ['authorization_code'],
        authMethod: 'client_secret_basic',
        disabled: false,
        name: null,
      },
      secret: null,
    });
    expect(await authorize('edited', 'edited-app', 'https://app.example.com/new-callback')).toBe(303);
    expect(await authorize('edited', 'edited-app', 'https://app.example.com/callback')).toBe(400);

    // A name people see when they sign in, set and taken away.
    const named = await adminCall(t.app, 'PATCH', path, { token: owner, body: { name: ' Edited App ' } });
    expect(named.json().client.name).toBe('Edited App');
    const stored = await t.services.db
      .selectFrom('oidc_clients')
      .select('metadata')
      .where('tenant_code', '=', 'edited')
      .where('client_id', '=', 'edited-app')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.metadata).client_name).toBe('Edited App');
    const unnamed = await adminCall(t.app, 'PATCH', path, { token: owner, body: { name: null } });
    expect(unnamed.json().client.name).toBeNull();
    const created = await adminCall(t.app, 'POST', '/tenants/edited/clients', {
      token: owner,
      body: { clientId: 'edited-web', name: 'Edited Web', redirectUris: ['https://web.example.com/cb'] },
    });
    expect(created.json().client.name).toBe('Edited Web');

    // Public, then confidential again: the new secret is answered once.
    const publicClient = await adminCall(t.app, 'PATCH', path, {
      token: owner,
      body: { authMethod: 'none' },
    });
    expect(publicClient.json()).toMatchObject({ client: { authMethod: 'none' }, secret: null });
    const confidential = await adminCall(t.app, 'PATCH', path, {
      token: owner,
      body: { authMethod: 'client_secret_post' },
    });
    expect(confidential.json().secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The login client keeps the authorization code grant.
    const noCode = await adminCall(t.app, 'PATCH', path, {
      token: owner,
      body: { grantTypes: ['refresh_token'] },
    });
    expect(noCode.statusCode).toBe(400);
    expect(apiErrorSchema.parse(noCode.json()).fields).toHaveProperty('grantTypes');
  });

  it('names the people and targets of the audit log and offers them as filters', async () => {
    await tenantFor('audited');
    const userId = await invitedUser('audited', 'guest@audited.test');
    const helpDesk = await operatorToken(t, 'integrator-help', 'help_desk');
    await adminCall(t.app, 'POST', `/tenants/audited/users/${userId}/end-sessions`, {
      token: helpDesk,
      body: {},
    });
    const auditor = await operatorToken(t, 'integrator-auditor', 'auditor');

    const answer = await adminCall(t.app, 'GET', '/audit?tenant=audited', { token: auditor });
    expect(answer.statusCode).toBe(200);
    const { entries, names } = auditSearchResponse.parse(answer.json());
    const disable = entries.find((entry) => entry.action === 'user.end_sessions');
    expect(disable?.target.id).toBe(userId);
    expect(names[userId]).toBe('guest@audited.test');
    // A machine acts under its client id, which names it.
    expect(disable?.actor).toEqual({ kind: 'client', id: 'integrator-help' });

    // A person acts under the operator's id, named by the account's address.
    const personId = crypto.randomUUID();
    await t.services.db
      .insertInto('operators')
      .values({
        id: personId,
        kind: 'human',
        subject: userId,
        role: 'owner',
        tenants: null,
        created_at: Date.now(),
      })
      .execute();
    await recordAudit(
      t.services.db,
      { kind: 'operator', id: personId },
      { tenant: 'audited', action: 'tenant.update', target: { kind: 'tenant', id: 'audited' } },
      Date.now(),
    );
    const named = auditSearchResponse.parse(
      (
        await adminCall(t.app, 'GET', '/audit?tenant=audited&action=tenant.update', { token: auditor })
      ).json(),
    );
    expect(named.entries[0]?.actor.id).toBe(personId);
    expect(named.names[personId]).toBe('guest@audited.test');
    expect(named.names.audited).toBe('Tenant audited');

    const choices = auditChoicesResponse.parse(
      (await adminCall(t.app, 'GET', '/audit/choices?tenant=audited', { token: auditor })).json(),
    );
    expect(choices.targets).toContainEqual({ kind: 'user', id: userId, name: 'guest@audited.test' });
    expect(choices.actors.map((actor) => actor.name)).toEqual(
      expect.arrayContaining(['integrator-help', 'integrator-owner', 'guest@audited.test']),
    );
    expect(choices.actions).toEqual(expect.arrayContaining(['user.invite', 'user.end_sessions']));

    // A scoped auditor of another tenant sees none of it.
    const elsewhere = await operatorToken(t, 'integrator-other', 'auditor', ['grand-hotel']);
    const hidden = auditChoicesResponse.parse(
      (await adminCall(t.app, 'GET', '/audit/choices', { token: elsewhere })).json(),
    );
    expect(hidden.targets.map((target) => target.id)).not.toContain(userId);
  });
});
