import { type AdminAnswer, adminOperations } from '@keycard/contract/admin-paths';
import { partnerAlgorithms, partnerLinkingPolicies } from '@keycard/contract/partners';
import { useId, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { ApiError, parseRequestBody } from '../../lib/api-error.ts';
import { type Translate, useTranslation } from '../../lib/i18n.tsx';
import { ChoiceField } from '../../ui/choice-field.tsx';
import { Field } from '../../ui/field.tsx';
import { type FieldPlace, useFieldErrors } from '../../ui/field-errors.ts';
import { LinesField } from '../../ui/lines-field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import type { ResultState } from '../../ui/result.tsx';

export type Partner = AdminAnswer<typeof adminOperations.listPartners>['partners'][number];
type Algorithm = (typeof partnerAlgorithms)[number];
type Linking = (typeof partnerLinkingPolicies)[number];

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function placeOf(path: string[]): FieldPlace | null {
  const [first, second] = path;
  const line = second !== undefined && /^\d+$/.test(second) ? Number(second) + 1 : undefined;
  if (first === 'jwksUri' || first === 'jwks') return { field: 'keys' };
  if (first === 'redirectUris') return line ? { field: first, line } : { field: first };
  const known = ['code', 'displayName', 'issuer', 'algorithms', 'linking', 'helpUrlTemplate', 'skipMfa'];
  return first && known.includes(first) ? { field: first } : null;
}

/**
 * A partner's form (issue 19: a form, not JSON): who it is, where its keys are (an address or
 * the keys themselves, a JWKS document), the algorithms and linking rule, where hand-offs may go
 * and whether its sign-ins skip MFA. The same schema as the API checks it before it is sent.
 */
export function PartnerForm({
  tenantCode,
  partner,
  result,
  onSaved,
  onCancel,
}: {
  tenantCode: string;
  partner: Partner | null;
  result: ResultState;
  onSaved: (code: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [code, setCode] = useState(partner?.code ?? '');
  const [displayName, setDisplayName] = useState(partner?.displayName ?? '');
  const [issuer, setIssuer] = useState(partner?.issuer ?? '');
  const [keySource, setKeySource] = useState<'uri' | 'inline'>(partner?.jwks ? 'inline' : 'uri');
  const [jwksUri, setJwksUri] = useState(partner?.jwksUri ?? '');
  const [jwks, setJwks] = useState(partner?.jwks ? JSON.stringify(partner.jwks, null, 2) : '');
  const [algorithms, setAlgorithms] = useState<Algorithm[]>(partner?.algorithms ?? [...partnerAlgorithms]);
  const [linking, setLinking] = useState<Linking>(partner?.linking ?? 'link-verified-email');
  const [redirectUris, setRedirectUris] = useState(partner?.redirectUris.join('\n') ?? '');
  const [helpUrl, setHelpUrl] = useState(partner?.helpUrlTemplate ?? '');
  const [skipMfa, setSkipMfa] = useState(partner?.skipMfa ?? false);
  const { errors, clear, refuse } = useFieldErrors(form, result.busy);
  const labelsIn = (said: Translate) => ({
    code: said('partners.code'),
    displayName: said('partnerForm.displayName'),
    issuer: said('partners.issuer'),
    keys: said('partnerForm.keys'),
    algorithms: said('partnerForm.algorithms'),
    linking: said('partnerForm.linking'),
    redirectUris: said('partnerForm.redirectUris'),
    helpUrlTemplate: said('partnerForm.helpUrl'),
    skipMfa: said('partnerForm.skipMfa'),
  });
  const labels = labelsIn(t);

  const save = () =>
    result.run(async () => {
      clear();
      try {
        let keys: unknown = null;
        if (keySource === 'inline') {
          try {
            keys = JSON.parse(jwks);
          } catch {
            throw new ApiError('common.validation_failed', 0, { fields: { jwks: 'invalid JSON' } });
          }
        }
        const body = parseRequestBody(adminOperations.savePartner.body, {
          code: code.trim(),
          displayName: displayName.trim() || undefined,
          issuer: issuer.trim(),
          jwksUri: keySource === 'uri' ? jwksUri.trim() || null : null,
          jwks: keys,
          algorithms,
          linking,
          redirectUris: lines(redirectUris),
          helpUrlTemplate: helpUrl.trim() || null,
          skipMfa,
        });
        const answer = await adminRequest(adminOperations.savePartner, {
          params: { code: tenantCode, partnerCode: body.code },
          body,
        });
        await onSaved(answer.partner.code);
        const saved = answer.partner.code;
        return (said: Translate) => said('partners.saved', { code: saved });
      } catch (error) {
        return refuse(t, error, placeOf, labelsIn);
      }
    });

  const text = (
    name: 'code' | 'displayName' | 'issuer' | 'helpUrlTemplate',
    value: string,
    set: (v: string) => void,
    hint?: string,
    optional = false,
  ) => (
    <Field
      id={`${id}-${name}`}
      label={optional ? `${labels[name]} ${t('common.optional')}` : labels[name]}
      hint={hint}
      invalid={Boolean(errors[name])}
      error={errors[name]}
    >
      {(control) => (
        <input
          {...control}
          value={value}
          readOnly={name === 'code' && partner !== null}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => set(event.target.value)}
        />
      )}
    </Field>
  );
  const groupError = (name: 'algorithms' | 'keys') =>
    errors[name] ? (
      <p id={`${id}-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    ) : null;
  const invalidProps = (name: 'algorithms') =>
    errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${name}-error` } : {};

  return (
    <PanelForm
      heading={partner ? t('partnerForm.editHeading', { code: partner.code }) : t('partnerForm.newHeading')}
      formRef={form}
      busy={result.busy}
      submit={t('partners.save')}
      actions={
        onCancel && (
          <button type="button" className="button-secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        )
      }
      onSubmit={() => void save()}
    >
      {text('code', code, setCode, t('partnerForm.codeHint'))}
      {text('displayName', displayName, setDisplayName, t('partnerForm.displayNameHint'), true)}
      {text('issuer', issuer, setIssuer, t('partnerForm.issuerHint'))}
      <fieldset className="field">
        <legend>{labels.keys}</legend>
        <label className="check">
          <input
            type="radio"
            name={`${id}-keys`}
            checked={keySource === 'uri'}
            onChange={() => setKeySource('uri')}
          />
          {t('partnerForm.keysByUri')}
        </label>
        <label className="check">
          <input
            type="radio"
            name={`${id}-keys`}
            checked={keySource === 'inline'}
            onChange={() => setKeySource('inline')}
          />
          {t('partnerForm.keysInline')}
        </label>
        {keySource === 'uri' ? (
          <Field
            id={`${id}-jwks-uri`}
            label={t('partnerForm.jwksUri')}
            hint={t('partnerForm.jwksUriHint')}
            invalid={Boolean(errors.keys)}
            error={errors.keys}
          >
            {(control) => (
              <input
                {...control}
                type="url"
                value={jwksUri}
                spellCheck={false}
                onChange={(event) => setJwksUri(event.target.value)}
              />
            )}
          </Field>
        ) : (
          <Field
            id={`${id}-jwks`}
            label={t('partnerForm.jwks')}
            hint={t('partnerForm.jwksHint')}
            invalid={Boolean(errors.keys)}
            error={errors.keys}
          >
            {(control) => (
              <textarea
                {...control}
                className="mono"
                rows={6}
                value={jwks}
                spellCheck={false}
                onChange={(event) => setJwks(event.target.value)}
              />
            )}
          </Field>
        )}
      </fieldset>
      <fieldset className="field">
        <legend>{labels.algorithms}</legend>
        {partnerAlgorithms.map((algorithm) => (
          <label key={algorithm} className="check">
            <input
              type="checkbox"
              checked={algorithms.includes(algorithm)}
              {...invalidProps('algorithms')}
              onChange={(event) =>
                setAlgorithms((current) =>
                  event.target.checked
                    ? [...current, algorithm]
                    : current.filter((each) => each !== algorithm),
                )
              }
            />
            <code>{algorithm}</code>
          </label>
        ))}
        {groupError('algorithms')}
      </fieldset>
      <ChoiceField
        id={`${id}-linking`}
        label={labels.linking}
        hint={t(`partnerForm.linkingHints.${linking}`)}
        choices={partnerLinkingPolicies}
        nameOf={(policy) => t(`partnerForm.linkings.${policy}`)}
        value={linking}
        onChange={setLinking}
      />
      <LinesField
        id={`${id}-redirects`}
        label={`${labels.redirectUris} ${t('common.optional')}`}
        hint={t('partnerForm.redirectUrisHint')}
        error={errors.redirectUris}
        rows={2}
        value={redirectUris}
        onChange={setRedirectUris}
      />
      {text(
        'helpUrlTemplate',
        helpUrl,
        setHelpUrl,
        t('partnerForm.helpUrlHint', { email: '{email}', partnerCode: '{partnerCode}' }),
        true,
      )}
      <label className="check">
        <input type="checkbox" checked={skipMfa} onChange={(event) => setSkipMfa(event.target.checked)} />
        {labels.skipMfa}
      </label>
      <p className="hint">{t('partnerForm.skipMfaHint')}</p>
    </PanelForm>
  );
}
