import { type AdminClient, adminClientSchema, adminClientSecretResponse } from '@keycard/contract/admin';
import { clientAuthMethods, clientGrantTypes } from '@keycard/contract/configuration';
import { useState } from 'react';
import { callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import type { SectionProps } from '../tenants/tenant-page.tsx';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function ClientsSection({ tenant, onChange }: SectionProps) {
  const { t } = useTranslation();
  const { can } = useSession();
  const writable = can('tenants.write');
  const result = useResult();
  const [secret, setSecret] = useState<{ clientId: string; secret: string } | null>(null);
  const [clientId, setClientId] = useState('');
  const [redirectUris, setRedirectUris] = useState('');
  const [postLogoutUris, setPostLogoutUris] = useState('');
  const [grantTypes, setGrantTypes] = useState<string[]>(['authorization_code', 'refresh_token']);
  const [authMethod, setAuthMethod] = useState<(typeof clientAuthMethods)[number]>('client_secret_basic');
  const base = `/tenants/${encodeURIComponent(tenant.code)}/clients`;

  const showSecret = (answer: { client: AdminClient; secret: string | null }) =>
    setSecret(answer.secret ? { clientId: answer.client.clientId, secret: answer.secret } : null);

  const create = () =>
    result.run(async () => {
      const answer = await callApi(base, adminClientSecretResponse, {
        method: 'POST',
        body: {
          clientId: clientId.trim(),
          redirectUris: lines(redirectUris),
          postLogoutRedirectUris: lines(postLogoutUris),
          grantTypes,
          authMethod,
        },
      });
      showSecret(answer);
      setClientId('');
      setRedirectUris('');
      setPostLogoutUris('');
      onChange();
      return `${t('clients.created', { clientId: answer.client.clientId })}${answer.secret ? '' : ` ${t('clients.publicClient')}`}`;
    });
  const rotate = (id: string) =>
    result.run(async () => {
      const answer = await callApi(`${base}/${encodeURIComponent(id)}/secret`, adminClientSecretResponse, {
        method: 'POST',
      });
      showSecret(answer);
      return t('clients.rotated', { clientId: id });
    });
  const toggle = (client: AdminClient) =>
    result.run(async () => {
      const action = client.disabled ? 'enable' : 'disable';
      await callApi(`${base}/${encodeURIComponent(client.clientId)}/${action}`, adminClientSchema, {
        method: 'POST',
      });
      onChange();
      return t(client.disabled ? 'clients.enabledDone' : 'clients.disabledDone', {
        clientId: client.clientId,
      });
    });

  return (
    <section aria-labelledby="clients-heading">
      <h2 id="clients-heading">{t('clients.heading')}</h2>
      <Result result={result} />
      {secret && <SecretOnce owner={secret.clientId} secret={secret.secret} onDone={() => setSecret(null)} />}
      {tenant.clients.length === 0 ? (
        <p>{t('clients.empty')}</p>
      ) : (
        <ul className="cards">
          {tenant.clients.map((client) => (
            <li key={client.clientId} className="card" aria-labelledby={`client-${client.clientId}`}>
              <h3 id={`client-${client.clientId}`}>
                <code>{client.clientId}</code>
              </h3>
              {client.clientId === tenant.loginClientId && <p className="hint">{t('clients.loginClient')}</p>}
              <dl>
                <div>
                  <dt>{t('clients.status')}</dt>
                  <dd>
                    <span className={client.disabled ? 'badge badge-off' : 'badge badge-on'}>
                      {client.disabled ? t('clients.disabled') : t('clients.enabled')}
                    </span>
                  </dd>
                </div>
                <div>
                  <dt>{t('clients.authMethod')}</dt>
                  <dd>{t(`clients.authMethods.${client.authMethod}`)}</dd>
                </div>
                <div>
                  <dt>{t('clients.grantTypes')}</dt>
                  <dd>{client.grantTypes.join(', ')}</dd>
                </div>
                <div>
                  <dt>{t('clients.redirectUris')}</dt>
                  <dd className="wrap">{client.redirectUris.join(' ') || t('common.none')}</dd>
                </div>
                <div>
                  <dt>{t('clients.postLogoutRedirectUris')}</dt>
                  <dd className="wrap">{client.postLogoutRedirectUris.join(' ') || t('common.none')}</dd>
                </div>
              </dl>
              {writable && (
                <div className="actions">
                  {client.authMethod !== 'none' && (
                    <ConfirmButton
                      label={`${t('clients.rotate')}: ${client.clientId}`}
                      question={t('clients.rotateQuestion', { clientId: client.clientId })}
                      onConfirm={() => void rotate(client.clientId)}
                    >
                      {t('clients.rotate')}
                    </ConfirmButton>
                  )}
                  {client.disabled ? (
                    <button
                      type="button"
                      className="button-secondary"
                      aria-label={`${t('clients.enable')}: ${client.clientId}`}
                      onClick={() => void toggle(client)}
                    >
                      {t('clients.enable')}
                    </button>
                  ) : (
                    client.clientId !== tenant.loginClientId && (
                      <ConfirmButton
                        label={`${t('clients.disable')}: ${client.clientId}`}
                        question={t('clients.disableQuestion', { clientId: client.clientId })}
                        onConfirm={() => void toggle(client)}
                      >
                        {t('clients.disable')}
                      </ConfirmButton>
                    )
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {writable && (
        <form
          className="panel"
          aria-labelledby="client-create-heading"
          onSubmit={(event) => {
            event.preventDefault();
            void create();
          }}
        >
          <h3 id="client-create-heading">{t('clients.createHeading')}</h3>
          <fieldset disabled={result.busy} className="plain">
            <div className="field">
              <label htmlFor="client-id">{t('clients.clientId')}</label>
              <input
                id="client-id"
                value={clientId}
                required
                onChange={(event) => setClientId(event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="client-redirects">{t('clients.redirectUris')}</label>
              <textarea
                id="client-redirects"
                rows={3}
                value={redirectUris}
                aria-describedby="client-redirects-hint"
                onChange={(event) => setRedirectUris(event.target.value)}
              />
              <p id="client-redirects-hint" className="hint">
                {t('common.onePerLine')}
              </p>
            </div>
            <div className="field">
              <label htmlFor="client-logout-redirects">{t('clients.postLogoutRedirectUris')}</label>
              <textarea
                id="client-logout-redirects"
                rows={2}
                value={postLogoutUris}
                onChange={(event) => setPostLogoutUris(event.target.value)}
              />
            </div>
            <fieldset>
              <legend>{t('clients.grantTypes')}</legend>
              {clientGrantTypes.map((grant) => (
                <label key={grant} className="check">
                  <input
                    type="checkbox"
                    checked={grantTypes.includes(grant)}
                    onChange={(event) =>
                      setGrantTypes((current) =>
                        event.target.checked ? [...current, grant] : current.filter((g) => g !== grant),
                      )
                    }
                  />
                  <code>{grant}</code>
                </label>
              ))}
            </fieldset>
            <div className="field">
              <label htmlFor="client-auth">{t('clients.authMethod')}</label>
              <select
                id="client-auth"
                value={authMethod}
                onChange={(event) => setAuthMethod(event.target.value as typeof authMethod)}
              >
                {clientAuthMethods.map((method) => (
                  <option key={method} value={method}>
                    {t(`clients.authMethods.${method}`)}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit">{t('clients.create')}</button>
          </fieldset>
        </form>
      )}
    </section>
  );
}
