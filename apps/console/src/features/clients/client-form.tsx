import type { AdminClient } from '@keycard/contract/admin';
import { clientAuthMethods, clientGrantTypes } from '@keycard/contract/configuration';
import { type ReactNode, useId, useRef, useState } from 'react';
import { type Translate, useTranslation } from '../../lib/i18n.tsx';
import { ChoiceField } from '../../ui/choice-field.tsx';
import { Field } from '../../ui/field.tsx';
import { type FieldPlace, useFieldErrors } from '../../ui/field-errors.ts';
import { LinesField } from '../../ui/lines-field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import type { ResultState, Saying } from '../../ui/result.tsx';

export type GrantType = (typeof clientGrantTypes)[number];
export type AuthMethod = (typeof clientAuthMethods)[number];

export interface ClientValues {
  clientId: string;
  /** '' for none. */
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: GrantType[];
  authMethod: AuthMethod;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Where a refusal's path is in this form: `redirectUris.0` is the redirect URIs' first line. */
function placeOf(path: string[]): FieldPlace | null {
  const [first, second] = path;
  const line = second !== undefined && /^\d+$/.test(second) ? Number(second) + 1 : undefined;
  if (first === 'clientId' || first === 'authMethod' || first === 'name') return { field: first };
  if (first === 'grantTypes' || first === 'responseTypes') return { field: 'grantTypes' };
  if (first === 'redirectUris' || first === 'postLogoutRedirectUris') {
    return line === undefined ? { field: first } : { field: first, line };
  }
  return null;
}

/**
 * A client's form: creating one (with its id) or changing one (its id fixed), with the same
 * fields and rules; a refusal is said at its fields, in words, and the first takes focus.
 */
export function ClientForm({
  client,
  heading,
  submit,
  result,
  actions,
  onSave,
}: {
  /** The client to change; without it, a new one. */
  client?: AdminClient;
  heading: ReactNode;
  submit: ReactNode;
  result: ResultState;
  actions?: ReactNode;
  /** Sends the values; answers the outcome's text (the form is emptied after a creation). */
  onSave: (values: ClientValues) => Promise<Saying | undefined>;
}) {
  const { t } = useTranslation();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [clientId, setClientId] = useState(client?.clientId ?? '');
  const [name, setName] = useState(client?.name ?? '');
  const [redirectUris, setRedirectUris] = useState(client?.redirectUris.join('\n') ?? '');
  const [postLogoutUris, setPostLogoutUris] = useState(client?.postLogoutRedirectUris.join('\n') ?? '');
  const [grantTypes, setGrantTypes] = useState<GrantType[]>(
    client
      ? client.grantTypes.flatMap((grant) => clientGrantTypes.filter((known) => known === grant))
      : ['authorization_code', 'refresh_token'],
  );
  const [authMethod, setAuthMethod] = useState<AuthMethod>(client?.authMethod ?? 'client_secret_basic');
  const { errors, clear, refuse } = useFieldErrors(form, result.busy);
  const labelsIn = (said: Translate) => ({
    clientId: said('clients.clientId'),
    name: said('clientForm.name'),
    redirectUris: said('clients.redirectUris'),
    postLogoutRedirectUris: said('clients.postLogoutRedirectUris'),
    grantTypes: said('clients.grantTypes'),
    authMethod: said('clients.authMethod'),
  });
  const labels = labelsIn(t);
  const prefix = client ? `client-${client.clientId}` : 'client-new';

  const save = () =>
    result.run(async () => {
      clear();
      try {
        const text = await onSave({
          clientId: clientId.trim(),
          name: name.trim(),
          redirectUris: lines(redirectUris),
          postLogoutRedirectUris: lines(postLogoutUris),
          grantTypes,
          authMethod,
        });
        if (!client) {
          setClientId('');
          setName('');
          setRedirectUris('');
          setPostLogoutUris('');
        }
        return text;
      } catch (error) {
        return refuse(t, error, placeOf, labelsIn, {
          'admin.client_exists': { field: 'clientId', text: 'fieldErrors.clientTaken' },
        });
      }
    });

  const grantError = errors.grantTypes;
  return (
    <PanelForm
      heading={heading}
      formRef={form}
      busy={result.busy}
      submit={submit}
      actions={actions}
      onSubmit={() => void save()}
    >
      {!client && (
        <Field
          id={`${prefix}-id`}
          label={labels.clientId}
          hint={t('clientForm.clientIdHint')}
          invalid={Boolean(errors.clientId)}
          error={errors.clientId}
        >
          {(control) => (
            <input
              {...control}
              value={clientId}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setClientId(event.target.value)}
            />
          )}
        </Field>
      )}
      <Field
        id={`${prefix}-name`}
        label={`${labels.name} ${t('common.optional')}`}
        hint={t('clientForm.nameHint')}
        invalid={Boolean(errors.name)}
        error={errors.name}
      >
        {(control) => <input {...control} value={name} onChange={(event) => setName(event.target.value)} />}
      </Field>
      <LinesField
        id={`${prefix}-redirects`}
        label={labels.redirectUris}
        hint={t('clientForm.redirectUrisHint')}
        error={errors.redirectUris}
        rows={3}
        value={redirectUris}
        onChange={setRedirectUris}
      />
      <LinesField
        id={`${prefix}-logout`}
        label={`${labels.postLogoutRedirectUris} ${t('common.optional')}`}
        hint={t('common.onePerLine')}
        error={errors.postLogoutRedirectUris}
        rows={2}
        value={postLogoutUris}
        onChange={setPostLogoutUris}
      />
      <fieldset className="field">
        <legend>{labels.grantTypes}</legend>
        {clientGrantTypes.map((grant) => (
          <label key={grant} className="check">
            <input
              type="checkbox"
              checked={grantTypes.includes(grant)}
              aria-invalid={grantError ? true : undefined}
              aria-describedby={grantError ? `${id}-grant-error` : undefined}
              onChange={(event) =>
                setGrantTypes((current) =>
                  event.target.checked ? [...current, grant] : current.filter((g) => g !== grant),
                )
              }
            />
            {t(`clientForm.grants.${grantKey(grant)}`)} <code>{grant}</code>
          </label>
        ))}
        {grantError && (
          <p id={`${id}-grant-error`} className="field-error">
            {grantError}
          </p>
        )}
      </fieldset>
      <ChoiceField
        id={`${prefix}-auth`}
        label={labels.authMethod}
        hint={t('clientForm.authMethodHint')}
        error={errors.authMethod}
        choices={clientAuthMethods}
        nameOf={(method) => t(`clients.authMethods.${method}`)}
        value={authMethod}
        onChange={setAuthMethod}
      />
    </PanelForm>
  );
}

/** The grant's text key: the token exchange's URN has none of its own. */
function grantKey(grant: GrantType): 'authorization_code' | 'refresh_token' | 'token_exchange' {
  return grant === 'authorization_code' || grant === 'refresh_token' ? grant : 'token_exchange';
}
