import type { AdminClient } from '@keycard/contract/admin';
import { type AdminAnswer, adminOperations } from '@keycard/contract/admin-paths';
import { clientAuthMethods, clientGrantTypes } from '@keycard/contract/configuration';
import { useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { CardList } from '../../ui/card-list.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Field } from '../../ui/field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';

type GrantType = (typeof clientGrantTypes)[number];
type AuthMethod = (typeof clientAuthMethods)[number];

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
  const [grantTypes, setGrantTypes] = useState<GrantType[]>(['authorization_code', 'refresh_token']);
  const [authMethod, setAuthMethod] = useState<AuthMethod>('client_secret_basic');
  const code = tenant.code;

  const showSecret = (answer: AdminAnswer<typeof adminOperations.rotateClientSecret>) =>
    setSecret(answer.secret ? { clientId: answer.client.clientId, secret: answer.secret } : null);

  const create = () =>
    result.run(async () => {
      const answer = await adminRequest(adminOperations.createClient, {
        params: { code },
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
      showSecret(await adminRequest(adminOperations.rotateClientSecret, { params: { code, clientId: id } }));
      return t('clients.rotated', { clientId: id });
    });
  const toggle = (client: AdminClient) =>
    result.run(async () => {
      const operation = client.disabled ? adminOperations.enableClient : adminOperations.disableClient;
      await adminRequest(operation, { params: { code, clientId: client.clientId } });
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
      <CardList
        items={tenant.clients}
        itemKey={(client) => client.clientId}
        empty={t('clients.empty')}
        heading={(client) => <code>{client.clientId}</code>}
        facts={(client) => [
          {
            label: t('clients.status'),
            value: (
              <span className={client.disabled ? 'badge badge-off' : 'badge badge-on'}>
                {client.disabled ? t('clients.disabled') : t('clients.enabled')}
              </span>
            ),
          },
          { label: t('clients.authMethod'), value: t(`clients.authMethods.${client.authMethod}`) },
          { label: t('clients.grantTypes'), value: client.grantTypes.join(', ') },
          {
            label: t('clients.redirectUris'),
            value: client.redirectUris.join(' ') || t('common.none'),
            wrap: true,
          },
          {
            label: t('clients.postLogoutRedirectUris'),
            value: client.postLogoutRedirectUris.join(' ') || t('common.none'),
            wrap: true,
          },
        ]}
      >
        {(client) => (
          <>
            {client.clientId === tenant.loginClientId && <p className="hint">{t('clients.loginClient')}</p>}
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
          </>
        )}
      </CardList>
      {writable && (
        <PanelForm
          heading={t('clients.createHeading')}
          busy={result.busy}
          submit={t('clients.create')}
          onSubmit={() => void create()}
        >
          <Field id="client-id" label={t('clients.clientId')}>
            {(control) => (
              <input
                {...control}
                value={clientId}
                required
                onChange={(event) => setClientId(event.target.value)}
              />
            )}
          </Field>
          <Field id="client-redirects" label={t('clients.redirectUris')} hint={t('common.onePerLine')}>
            {(control) => (
              <textarea
                {...control}
                rows={3}
                value={redirectUris}
                onChange={(event) => setRedirectUris(event.target.value)}
              />
            )}
          </Field>
          <Field id="client-logout-redirects" label={t('clients.postLogoutRedirectUris')}>
            {(control) => (
              <textarea
                {...control}
                rows={2}
                value={postLogoutUris}
                onChange={(event) => setPostLogoutUris(event.target.value)}
              />
            )}
          </Field>
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
          <Field id="client-auth" label={t('clients.authMethod')}>
            {(control) => (
              <select
                {...control}
                value={authMethod}
                onChange={(event) =>
                  setAuthMethod(
                    clientAuthMethods.find((method) => method === event.target.value) ?? authMethod,
                  )
                }
              >
                {clientAuthMethods.map((method) => (
                  <option key={method} value={method}>
                    {t(`clients.authMethods.${method}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </PanelForm>
      )}
    </section>
  );
}
