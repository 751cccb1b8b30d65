import { adminOperations } from '@keycard/contract/admin-paths';
import { type ColourField, contrastReport } from '@keycard/contract/contrast';
import { paths } from '@keycard/contract/paths';
import { Link, useNavigate } from '@keycard/web/router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { ApiError, parseRequestBody } from '../../lib/api-error.ts';
import { type TextKey, type Translate, useTranslation } from '../../lib/i18n.tsx';
import { formatRatio, formatRequired } from '../../lib/numbers.ts';
import { consolePaths, tenantPath } from '../../lib/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { ColourInput, colourFields } from '../../ui/colour-input.tsx';
import { Field } from '../../ui/field.tsx';
import { FormRefusal, fieldErrorsOf } from '../../ui/field-errors.ts';
import { PanelForm } from '../../ui/panel-form.tsx';
import { Result, useResult } from '../../ui/result.tsx';
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

/** The tenant's "You are signed in" page on its login domain, as `location` serves pages. */
function signedInPageOf(loginDomain: string, location: Pick<Location, 'protocol' | 'port'>): string {
  return `${location.protocol}//${loginDomain}${location.port ? `:${location.port}` : ''}${paths.signedIn}`;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function TenantCreatePage() {
  const { t, translator } = useTranslation();
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
  // The fields' reasons as a function of the language, so a switch says them again in the new one.
  const [invalidIn, setInvalidIn] = useState<((said: Translate) => Record<string, string>) | null>(null);
  const invalid = useMemo(() => invalidIn?.(t) ?? {}, [invalidIn, t]);
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
      setInvalidIn(null);
      const code = values.code.trim();
      const loginClientId = values.loginClientId.trim();
      const defaultRedirectUri = values.defaultRedirectUri.trim();
      const loginDomain = values.loginDomain.trim();
      // Without the app's redirect or a default, the login client is registered for the
      // tenant's own signed-in page (served like this console, so with its scheme and port).
      const loginRedirectUri =
        values.loginRedirectUri.trim() ||
        defaultRedirectUri ||
        (loginDomain ? signedInPageOf(loginDomain, window.location) : '');
      // The starting colours pass the same contrast check as the theme editor's, or are not sent.
      const picked = colours;
      if (Object.keys(contrastFailures(t, picked)).length > 0) {
        setInvalidIn(() => (said: Translate) => contrastFailures(said, picked));
        setFocusInvalid(true);
        throw new FormRefusal((said) => said('newTenant.contrastSummary'));
      }
      try {
        // The API's own schema first: the same rules, said at the fields before anything is sent.
        const body = parseRequestBody(adminOperations.createTenant.body, {
          code,
          loginDomain,
          aliasDomains: lines(values.aliasDomains),
          // Left out: a sign-in no app asked for ends on the tenant's signed-in page.
          ...(defaultRedirectUri ? { defaultRedirectUri } : {}),
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
              redirectUris: [loginRedirectUri],
              postLogoutRedirectUris: defaultRedirectUri ? [defaultRedirectUri] : [],
            },
          ],
        });
        const answer = await adminRequest(adminOperations.createTenant, { body });
        // A generated secret is shown here, once; without one the tenant's page opens at once.
        if (answer.secrets.length === 0) navigate(tenantPath(answer.tenant.code));
        else setCreated({ code: answer.tenant.code, secrets: answer.secrets });
        const made = answer.tenant.code;
        return (said) => said('newTenant.created', { code: made });
      } catch (error) {
        // A coded refusal (a code in use) keeps its own words in the alert; invalid values
        // are said at their fields, and the alert only points there.
        if (error instanceof ApiError && markInvalid(error) && error.code === 'common.validation_failed') {
          throw new FormRefusal((said) => said('fieldErrors.summaryShort'));
        }
        throw error;
      }
    });

  /** Each colour whose pair fails contrast (contrast.ts), with the pair named at it. */
  const contrastFailures = (said: Translate, picked: Record<ColourField, string>) => {
    const found: Record<string, string> = {};
    for (const check of contrastReport(picked)) {
      if (check.passes) continue;
      const text = said('newTenant.contrastFails', {
        pair: said(`contrast.pairs.${check.pair}`),
        // In the language being said (the translator's, at the moment this is worded).
        ratio: formatRatio(check.ratio, translator.language),
        required: formatRequired(check.required, translator.language),
        colour: check.suggestion ?? '',
      });
      found[check.field] = found[check.field] ? `${found[check.field]} ${text}` : text;
    }
    return found;
  };

  /** Marks the fields a refusal names, each with its reason; answers whether it named any. */
  const markInvalid = (error: ApiError) => {
    const foundIn = (said: Translate) =>
      fieldErrorsOf(
        said,
        error,
        (path) => {
          const field = fieldOf(path.join('.'));
          return field ? { field } : null;
        },
        {
          'admin.tenant_exists': { field: 'code', text: 'fieldErrors.codeTaken' },
          'admin.domain_taken': { field: 'loginDomain', text: 'fieldErrors.domainTaken' },
        },
      );
    const marked = Object.keys(foundIn(t)).length > 0;
    setInvalidIn(() => foundIn);
    setFocusInvalid(marked);
    return marked;
  };

  const input = (
    field: FormField,
    options: { required?: boolean; multiline?: boolean; hint?: TextKey } = {},
  ) => (
    <Field
      id={`new-${field}`}
      label={`${t(`newTenant.${field}`)} ${options.required ? '' : t('common.optional')}`}
      hint={options.hint && t(options.hint)}
      invalid={Boolean(invalid[field])}
      error={invalid[field]}
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
          {input('defaultRedirectUri', { hint: 'newTenant.defaultRedirectUriHint' })}
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
                error={invalid[field]}
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
