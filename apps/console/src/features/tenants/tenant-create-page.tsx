import { adminOperations } from '@keycard/contract/admin-paths';
import type { ColourField } from '@keycard/contract/contrast';
import { Link, useNavigate } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { ApiError } from '../../lib/api-error.ts';
import { type TextKey, useTranslation } from '../../lib/i18n.tsx';
import { consolePaths, tenantPath } from '../../lib/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { ColourInput, colourFields } from '../../ui/colour-input.tsx';
import { Field } from '../../ui/field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { fieldNames, Result, useResult } from '../../ui/result.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';

/** A calm starting theme that passes every contrast pair; the theme editor changes it later. */
const startingColours: Record<ColourField, string> = {
  primaryBackground: '#1f3a5f',
  primaryForeground: '#ffffff',
  secondaryBackground: '#f5f7fa',
  secondaryForeground: '#1a1a1a',
  tertiaryBackground: '#1d4ed8',
  tertiaryForeground: '#ffffff',
};

type FormField =
  | 'code'
  | 'name'
  | 'loginDomain'
  | 'aliasDomains'
  | 'defaultRedirectUri'
  | 'loginClientId'
  | 'loginRedirectUri';

/** The fields a refusal's first path segment may name as they are. */
const formFields = ['code', 'loginDomain', 'aliasDomains', 'defaultRedirectUri', 'loginClientId'] as const;

/** The form field a refusal's path names (`clients.0.redirectUris.0`, `aliasDomains[1]`, `theme.colours.x`). */
function fieldOf(path: string): FormField | ColourField | null {
  const [first, second, third] = path.split(/[.[\]]+/).filter(Boolean);
  if (first === 'theme')
    return second === 'name'
      ? 'name'
      : second === 'colours'
        ? (colourFields.find((field) => field === third) ?? null)
        : null;
  if (first === 'clients') return third === 'redirectUris' ? 'loginRedirectUri' : 'loginClientId';
  return formFields.find((field) => field === first) ?? null;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function TenantCreatePage() {
  const { t } = useTranslation();
  const { me, can } = useSession();
  const navigate = useNavigate();
  const result = useResult();
  const [values, setValues] = useState<Record<FormField, string>>({
    code: '',
    name: '',
    loginDomain: '',
    aliasDomains: '',
    defaultRedirectUri: '',
    loginClientId: '',
    loginRedirectUri: '',
  });
  const [clientIdEdited, setClientIdEdited] = useState(false);
  const [colours, setColours] = useState(startingColours);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<{
    code: string;
    secrets: { clientId: string; secret: string }[];
  } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  // The form (and its button, which had focus) gives way to the secret: focus goes there.
  const secretBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (created) secretBox.current?.focus();
  }, [created]);
  // After a refusal, the first field to fix takes focus once the form is enabled again.
  const [focusInvalid, setFocusInvalid] = useState(false);
  useEffect(() => {
    if (!focusInvalid || result.busy) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    setFocusInvalid(false);
  }, [focusInvalid, result.busy]);
  useEffect(() => {
    document.title = `${t('newTenant.heading')} | ${t('app.title')}`;
  }, [t]);

  const set = (field: FormField, value: string) =>
    setValues((current) => ({
      ...current,
      [field]: value,
      // The login client is named after the tenant until the operator names it.
      ...(field === 'code' && !clientIdEdited
        ? { loginClientId: value.trim() ? `${value.trim()}-app` : '' }
        : {}),
    }));

  const create = () =>
    result.run(async () => {
      setInvalid(new Set());
      const code = values.code.trim();
      const loginClientId = values.loginClientId.trim();
      const defaultRedirectUri = values.defaultRedirectUri.trim();
      try {
        const answer = await adminRequest(adminOperations.createTenant, {
          body: {
            code,
            loginDomain: values.loginDomain.trim(),
            aliasDomains: lines(values.aliasDomains),
            defaultRedirectUri,
            loginClientId,
            theme: {
              name: values.name.trim(),
              images: { logo: '', favicon: '' },
              colours,
              links: { loginHelpUrl: null, contactSupportUrl: null },
            },
            clients: [
              {
                clientId: loginClientId,
                redirectUris: [values.loginRedirectUri.trim() || defaultRedirectUri],
                postLogoutRedirectUris: [defaultRedirectUri],
              },
            ],
          },
        });
        // A generated secret is shown here, once; without one the tenant's page opens at once.
        if (answer.secrets.length === 0) navigate(tenantPath(answer.tenant.code));
        else setCreated({ code: answer.tenant.code, secrets: answer.secrets });
        return t('newTenant.created', { code: answer.tenant.code });
      } catch (error) {
        if (error instanceof ApiError) markInvalid(error);
        throw error;
      }
    });

  const markInvalid = (error: ApiError) => {
    const named = new Set(fieldNames(error).flatMap((path) => fieldOf(path) ?? []));
    if (error.code === 'admin.tenant_exists') named.add('code');
    if (error.code === 'admin.domain_taken' && named.size === 0) named.add('loginDomain');
    setInvalid(named);
    setFocusInvalid(named.size > 0);
  };

  const input = (
    field: FormField,
    options: { required?: boolean; multiline?: boolean; hint?: TextKey } = {},
  ) => (
    <Field
      id={`new-${field}`}
      label={`${t(`newTenant.${field}`)} ${options.required ? '' : t('common.optional')}`}
      hint={options.hint && t(options.hint)}
      invalid={invalid.has(field)}
      error={t('newTenant.invalid')}
    >
      {(control) =>
        options.multiline ? (
          <textarea
            {...control}
            rows={2}
            value={values[field]}
            required={options.required}
            spellCheck={false}
            onChange={(event) => set(field, event.target.value)}
          />
        ) : (
          <input
            {...control}
            value={values[field]}
            required={options.required}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => {
              if (field === 'loginClientId') setClientIdEdited(true);
              set(field, event.target.value);
            }}
          />
        )
      }
    </Field>
  );

  if (created) {
    return (
      <>
        <h1 tabIndex={-1}>{t('newTenant.heading')}</h1>
        <Result result={result} />
        <div ref={secretBox} tabIndex={-1}>
          {created.secrets.map((secret) => (
            <SecretOnce
              level={2}
              key={secret.clientId}
              owner={secret.clientId}
              secret={secret.secret}
              onDone={() => navigate(tenantPath(created.code))}
            />
          ))}
        </div>
        <p>
          <Link to={tenantPath(created.code)}>{t('newTenant.open', { code: created.code })}</Link>
        </p>
      </>
    );
  }

  return (
    <>
      <h1 tabIndex={-1}>{t('newTenant.heading')}</h1>
      <p>
        <Link to={consolePaths.home}>{t('app.backHome')}</Link>
      </p>
      <p>{t('newTenant.intro')}</p>
      {me && !can('tenants.create') && <p className="hint">{t('common.readOnly')}</p>}
      <PanelForm
        className=""
        formRef={form}
        busy={result.busy}
        disabled={!can('tenants.create')}
        submit={t('newTenant.create')}
        onSubmit={() => void create()}
      >
        <section className="panel" aria-labelledby="new-tenant-heading">
          <h2 id="new-tenant-heading">{t('newTenant.detailsHeading')}</h2>
          {input('code', { required: true, hint: 'newTenant.codeHint' })}
          {input('name', { required: true, hint: 'newTenant.nameHint' })}
          {input('loginDomain', { required: true, hint: 'newTenant.loginDomainHint' })}
          {input('aliasDomains', { multiline: true, hint: 'common.onePerLine' })}
          {input('defaultRedirectUri', { required: true, hint: 'newTenant.defaultRedirectUriHint' })}
        </section>
        <section className="panel" aria-labelledby="new-client-heading">
          <h2 id="new-client-heading">{t('newTenant.loginClientHeading')}</h2>
          <p className="hint">{t('newTenant.loginClientHint')}</p>
          {input('loginClientId', { required: true })}
          {input('loginRedirectUri', { hint: 'newTenant.loginRedirectUriHint' })}
        </section>
        <fieldset className="panel" aria-describedby="new-colours-hint">
          <legend>{t('newTenant.coloursHeading')}</legend>
          <p id="new-colours-hint" className="hint">
            {t('newTenant.coloursHint')}
          </p>
          <div className="colours">
            {colourFields.map((field) => (
              <ColourInput
                key={field}
                field={field}
                value={colours[field]}
                disabled={false}
                onChange={(value) => setColours((current) => ({ ...current, [field]: value }))}
              />
            ))}
          </div>
        </fieldset>
        <Result result={result} />
      </PanelForm>
    </>
  );
}
