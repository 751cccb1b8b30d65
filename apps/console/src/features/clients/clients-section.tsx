import type { AdminClient } from '@keycard/contract/admin';
import { type AdminAnswer, adminOperations } from '@keycard/contract/admin-paths';
import { useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { parseRequestBody } from '../../lib/api-error.ts';
import { type Translate, useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { CardList } from '../../ui/card-list.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { ClientForm, type ClientValues } from './client-form.tsx';

export function ClientsSection({ tenant, onChange }: SectionProps) {
  const { t } = useTranslation();
  const { can } = useSession();
  const writable = can('tenants.write');
  const result = useResult();
  const [secret, setSecret] = useState<{ clientId: string; secret: string } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const code = tenant.code;

  const showSecret = (answer: AdminAnswer<typeof adminOperations.rotateClientSecret>) =>
    setSecret(answer.secret ? { clientId: answer.client.clientId, secret: answer.secret } : null);

  // Checked with the operation's own schema first: the same rules as the API, said at once.
  const create = async (values: ClientValues) => {
    const { name, ...rest } = values;
    const body = parseRequestBody(adminOperations.createClient.body, { ...rest, ...(name ? { name } : {}) });
    const answer = await adminRequest(adminOperations.createClient, { params: { code }, body });
    showSecret(answer);
    onChange();
    const created = answer.client.clientId;
    const secret = Boolean(answer.secret);
    return (said: Translate) =>
      `${said('clients.created', { clientId: created })}${secret ? '' : ` ${said('clients.publicClient')}`}`;
  };
  const update = async (client: AdminClient, values: ClientValues) => {
    const { clientId: _fixed, name, ...changes } = values;
    const body = parseRequestBody(adminOperations.updateClient.body, { ...changes, name: name || null });
    const answer = await adminRequest(adminOperations.updateClient, {
      params: { code, clientId: client.clientId },
      body,
    });
    showSecret(answer);
    setEditing(null);
    onChange();
    const saved = client.clientId;
    return (said: Translate) => said('clientForm.saved', { clientId: saved });
  };
  const rotate = (id: string) =>
    result.run(async () => {
      showSecret(await adminRequest(adminOperations.rotateClientSecret, { params: { code, clientId: id } }));
      return (said) => said('clients.rotated', { clientId: id });
    });
  const toggle = (client: AdminClient) =>
    result.run(async () => {
      const operation = client.disabled ? adminOperations.enableClient : adminOperations.disableClient;
      await adminRequest(operation, { params: { code, clientId: client.clientId } });
      onChange();
      const { clientId, disabled } = client;
      return (said) => said(disabled ? 'clients.enabledDone' : 'clients.disabledDone', { clientId });
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
          client.name !== null && { label: t('clientForm.name'), value: client.name },
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
                {editing !== client.clientId && (
                  <button
                    type="button"
                    className="button-secondary"
                    aria-label={`${t('common.edit')}: ${client.clientId}`}
                    onClick={() => setEditing(client.clientId)}
                  >
                    {t('common.edit')}
                  </button>
                )}
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
            {writable && editing === client.clientId && (
              <ClientForm
                client={client}
                heading={t('clientForm.editHeading', { clientId: client.clientId })}
                submit={t('clientForm.save')}
                result={result}
                actions={
                  <button type="button" className="button-secondary" onClick={() => setEditing(null)}>
                    {t('common.cancel')}
                  </button>
                }
                onSave={(values) => update(client, values)}
              />
            )}
          </>
        )}
      </CardList>
      {writable && (
        <ClientForm
          heading={t('clients.createHeading')}
          submit={t('clients.create')}
          result={result}
          onSave={create}
        />
      )}
    </section>
  );
}
