import { adminOperations } from '@keycard/contract/admin-paths';
import type { TenantSettingsConfig } from '@keycard/contract/configuration';
import { defaultMfaMethods, mfaDeliveryTypes } from '@keycard/contract/mfa';
import { type RefObject, useId, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { ApiError, parseRequestBody } from '../../lib/api-error.ts';
import { type Translate, useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { Field } from '../../ui/field.tsx';
import { type FieldPlace, fieldErrorsOf, reasonText, useFieldErrors } from '../../ui/field-errors.ts';
import { PanelForm } from '../../ui/panel-form.tsx';
import { errorText, Result, useResult } from '../../ui/result.tsx';

const mfaModes = ['off', 'recommended', 'required'] as const;
type MfaMode = (typeof mfaModes)[number];
const passkeyModes = ['off', 'offered', 'preferred'] as const;
type PasskeyMode = (typeof passkeyModes)[number];
type Method = (typeof mfaDeliveryTypes)[number];

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));
/** A day count as typed: empty, or digits only (a browser's number field would send '' for "1e"). */
const wholeOrEmpty = (text: string) => /^\d*$/.test(text.trim());

/**
 * Where a refusal's path is in the form. The body's own paths (`mfa.trustedDeviceDays`) and the
 * server's (`settings.passwordWarningDays`, checked against the stored expiry) both arrive.
 */
function placeOf(path: string[]): FieldPlace | null {
  const [first, second] = path[0] === 'settings' ? path.slice(1) : path;
  if (first === 'mfa') {
    if (second === 'trustedDeviceDays') return { field: 'trustedDeviceDays' };
    if (second === 'methods') return { field: 'methods' };
    return { field: 'mfaMode' };
  }
  if (first === 'securityMail') return { field: 'newBrowserSignIn' };
  const fields = ['passwordExpiryDays', 'passwordWarningDays', 'analyticsId', 'passkeys'];
  return first !== undefined && fields.includes(first) ? { field: first } : null;
}

/** The form's fields by their labels, as the alert and the JSON's errors name them. */
const labelsOf = (t: Translate): Record<string, string> => ({
  mfaMode: t('settings.mfaMode'),
  trustedDeviceDays: t('settings.trustedDeviceDays'),
  methods: t('settings.methods'),
  passkeys: t('settings.passkeys'),
  newBrowserSignIn: t('settings.newBrowserSignIn'),
  passwordExpiryDays: t('settings.passwordExpiryDays'),
  passwordWarningDays: t('settings.passwordWarningDays'),
  analyticsId: t('settings.analyticsId'),
});

/**
 * A refusal of the JSON, said in words at the JSON field: each setting by the form's label, or
 * else by its keys as written in the JSON (`captcha › siteKey`), never as an API path.
 */
function jsonErrorText(t: Translate, error: unknown): string {
  const labels = labelsOf(t);
  if (!(error instanceof ApiError) || error.code !== 'common.validation_failed' || !error.fields) {
    return errorText(t, error);
  }
  return Object.entries(error.fields)
    .map(([path, message]) => {
      const keys = path.split('.').filter((key) => key !== '_' && key !== '');
      const inSettings = keys[0] === 'settings' ? keys.slice(1) : keys;
      const place = placeOf(inSettings);
      const where = place
        ? labels[place.field]
        : inSettings.map((key) => (/^\d+$/.test(key) ? String(Number(key) + 1) : key)).join(' › ');
      const unknown = /Unrecognized keys?: (.+)/.exec(message);
      const reason = unknown
        ? t('fieldErrors.unknownSetting', { name: (unknown[1] ?? '').replaceAll('"', '') })
        : reasonText(t, message);
      return where ? t('fieldErrors.jsonAt', { where, reason }) : reason;
    })
    .join(' ');
}

/** The common settings as a form; every other one (captcha, messenger…) as JSON, merged. */
export function SettingsSection({ tenant, onChange }: SectionProps) {
  const { t } = useTranslation();
  const { can } = useSession();
  const writable = can('tenants.write');
  const result = useResult();
  const settings = tenant.settings;
  const [mode, setMode] = useState<MfaMode>(settings.mfa?.mode ?? 'off');
  const [trustedDays, setTrustedDays] = useState(String(settings.mfa?.trustedDeviceDays ?? ''));
  const [methods, setMethods] = useState<Method[]>(settings.mfa?.methods ?? [...defaultMfaMethods]);
  const [expiry, setExpiry] = useState(String(settings.passwordExpiryDays ?? ''));
  const [warning, setWarning] = useState(String(settings.passwordWarningDays ?? ''));
  const [verification, setVerification] = useState(settings.emailVerificationRequired ?? false);
  const [analyticsId, setAnalyticsId] = useState(settings.analyticsId ?? '');
  const [passkeys, setPasskeys] = useState<PasskeyMode>(settings.passkeys ?? 'offered');
  const [newBrowserMail, setNewBrowserMail] = useState(settings.securityMail?.newBrowserSignIn ?? false);
  const [json, setJson] = useState(JSON.stringify(settings, null, 2));
  const code = tenant.code;
  const form = useRef<HTMLFormElement>(null);
  const jsonForm = useRef<HTMLFormElement>(null);
  const formErrors = useFieldErrors(form, result.busy);
  const jsonErrors = useFieldErrors(jsonForm, result.busy);
  const labels = labelsOf(t);
  const errors = formErrors.errors;

  const patch = async (body: TenantSettingsConfig) => {
    const changed = await adminRequest(adminOperations.updateTenantSettings, { params: { code }, body });
    onChange(changed);
    setJson(JSON.stringify(changed.settings, null, 2));
    return (said: Translate) => said('common.saved');
  };
  // Checked here with the operation's schema, so a mistake is said at its field before anything
  // is sent; what only the server knows (the stored expiry) is said there too.
  const saveForm = () =>
    result.run(async () => {
      formErrors.clear();
      jsonErrors.clear();
      const body = {
        mfa: {
          mode,
          methods,
          ...(trustedDays.trim() ? { trustedDeviceDays: Number(trustedDays) } : {}),
        },
        passwordExpiryDays: numberOrNull(expiry),
        passwordWarningDays: numberOrNull(warning),
        emailVerificationRequired: verification,
        analyticsId: analyticsId.trim() || null,
        passkeys,
        securityMail: { newBrowserSignIn: newBrowserMail },
      };
      // Every mistake at once: the schema's, and day counts that are not plain digits ("0x10").
      let checked: TenantSettingsConfig | undefined;
      let refused: ApiError | undefined;
      try {
        checked = parseRequestBody(adminOperations.updateTenantSettings.body, body);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        refused = error;
      }
      const typed: Record<string, string> = {
        trustedDeviceDays: trustedDays,
        passwordExpiryDays: expiry,
        passwordWarningDays: warning,
      };
      formErrors.reject(
        t,
        (said) => {
          const found = refused ? fieldErrorsOf(said, refused, placeOf) : {};
          for (const [field, text] of Object.entries(typed)) {
            if (!wholeOrEmpty(text)) found[field] = said('fieldErrors.wholeNumber');
          }
          // In the form's order, as the alert names them.
          return Object.fromEntries(
            Object.keys(labels).flatMap((field) => (found[field] ? [[field, found[field]]] : [])),
          );
        },
        labels,
      );
      try {
        return await patch(checked ?? body);
      } catch (error) {
        return formErrors.refuse(t, error, placeOf, labelsOf);
      }
    });
  const saveJson = () =>
    result.run(async () => {
      formErrors.clear();
      jsonErrors.clear();
      try {
        return await patch(parseRequestBody(adminOperations.updateTenantSettings.body, JSON.parse(json)));
      } catch (error) {
        if (!(error instanceof SyntaxError || error instanceof ApiError)) throw error;
        if (error instanceof ApiError && error.code !== 'common.validation_failed') throw error;
        jsonErrors.reject(
          t,
          (said) => ({ json: jsonErrorText(said, error) }),
          (said) => ({ json: said('settings.jsonHeading') }),
        );
        throw error;
      }
    });

  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t('settings.heading')}</h2>
      <Result result={result} />
      {!writable && <p className="hint">{t('common.readOnly')}</p>}
      <PanelForm
        labelledBy="settings-heading"
        formRef={form}
        busy={result.busy}
        disabled={!writable}
        submit={t('settings.save')}
        onSubmit={() => void saveForm()}
      >
        <fieldset>
          <legend>{t('settings.mfaHeading')}</legend>
          <Field
            id="mfa-mode"
            label={t('settings.mfaMode')}
            invalid={Boolean(errors.mfaMode)}
            error={errors.mfaMode}
          >
            {(control) => (
              <select
                {...control}
                value={mode}
                onChange={(event) => setMode(mfaModes.find((name) => name === event.target.value) ?? mode)}
              >
                {mfaModes.map((name) => (
                  <option key={name} value={name}>
                    {t(`settings.mfaModes.${name}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id="trusted-days"
            label={t('settings.trustedDeviceDays')}
            invalid={Boolean(errors.trustedDeviceDays)}
            error={errors.trustedDeviceDays}
          >
            {(control) => (
              <input
                {...control}
                inputMode="numeric"
                autoComplete="off"
                value={trustedDays}
                onChange={(event) => setTrustedDays(event.target.value)}
              />
            )}
          </Field>
          <fieldset>
            <legend>{t('settings.methods')}</legend>
            {mfaDeliveryTypes.map((method) => (
              <label key={method} className="check">
                <input
                  type="checkbox"
                  aria-invalid={errors.methods ? true : undefined}
                  aria-describedby={errors.methods ? 'mfa-methods-error' : undefined}
                  checked={methods.includes(method)}
                  onChange={(event) =>
                    setMethods((current) =>
                      event.target.checked ? [...current, method] : current.filter((m) => m !== method),
                    )
                  }
                />
                {t(`settings.methodNames.${method}`)}
              </label>
            ))}
            {errors.methods && (
              <p id="mfa-methods-error" className="field-error">
                {errors.methods}
              </p>
            )}
          </fieldset>
        </fieldset>
        <fieldset>
          <legend>{t('settings.passkeysHeading')}</legend>
          <Field
            id="passkeys-mode"
            label={t('settings.passkeys')}
            hint={t('settings.passkeysHint')}
            invalid={Boolean(errors.passkeys)}
            error={errors.passkeys}
          >
            {(control) => (
              <select
                {...control}
                value={passkeys}
                onChange={(event) =>
                  setPasskeys(passkeyModes.find((name) => name === event.target.value) ?? passkeys)
                }
              >
                {passkeyModes.map((name) => (
                  <option key={name} value={name}>
                    {t(`settings.passkeyModes.${name}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <label className="check">
            <input
              type="checkbox"
              checked={newBrowserMail}
              onChange={(event) => setNewBrowserMail(event.target.checked)}
            />
            {t('settings.newBrowserSignIn')}
          </label>
        </fieldset>
        <fieldset>
          <legend>{t('settings.passwordHeading')}</legend>
          <Field
            id="password-expiry"
            label={t('settings.passwordExpiryDays')}
            invalid={Boolean(errors.passwordExpiryDays)}
            error={errors.passwordExpiryDays}
          >
            {(control) => (
              <input
                {...control}
                inputMode="numeric"
                autoComplete="off"
                value={expiry}
                onChange={(event) => setExpiry(event.target.value)}
              />
            )}
          </Field>
          <Field
            id="password-warning"
            label={t('settings.passwordWarningDays')}
            invalid={Boolean(errors.passwordWarningDays)}
            error={errors.passwordWarningDays}
          >
            {(control) => (
              <input
                {...control}
                inputMode="numeric"
                autoComplete="off"
                value={warning}
                onChange={(event) => setWarning(event.target.value)}
              />
            )}
          </Field>
          <label className="check">
            <input
              type="checkbox"
              checked={verification}
              onChange={(event) => setVerification(event.target.checked)}
            />
            {t('settings.emailVerificationRequired')}
          </label>
          <Field
            id="analytics-id"
            label={t('settings.analyticsId')}
            invalid={Boolean(errors.analyticsId)}
            error={errors.analyticsId}
          >
            {(control) => (
              <input
                {...control}
                value={analyticsId}
                onChange={(event) => setAnalyticsId(event.target.value)}
              />
            )}
          </Field>
        </fieldset>
      </PanelForm>
      <SettingsJson
        json={json}
        formRef={jsonForm}
        error={jsonErrors.errors.json}
        busy={result.busy}
        writable={writable}
        onEdit={setJson}
        onSave={() => void saveJson()}
      />
    </section>
  );
}

/** Every setting as JSON, for what the form above does not show; named by its heading. */
function SettingsJson({
  json,
  formRef,
  error,
  busy,
  writable,
  onEdit,
  onSave,
}: {
  json: string;
  formRef: RefObject<HTMLFormElement | null>;
  /** The JSON's refusal, in words. */
  error: string | undefined;
  busy: boolean;
  writable: boolean;
  onEdit: (json: string) => void;
  onSave: () => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <PanelForm
      heading={t('settings.jsonHeading')}
      headingId={headingId}
      formRef={formRef}
      busy={busy}
      disabled={!writable}
      submit={t('settings.jsonSave')}
      onSubmit={onSave}
    >
      <Field
        id="settings-json"
        labelledBy={headingId}
        hint={t('settings.jsonHint')}
        invalid={Boolean(error)}
        error={error}
      >
        {(control) => (
          <textarea
            {...control}
            className="mono"
            rows={14}
            spellCheck={false}
            value={json}
            onChange={(event) => onEdit(event.target.value)}
          />
        )}
      </Field>
    </PanelForm>
  );
}
