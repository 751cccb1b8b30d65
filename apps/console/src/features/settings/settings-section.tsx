import { adminOperations } from '@keycard/contract/admin-paths';
import type { TenantSettingsConfig } from '@keycard/contract/configuration';
import { mfaDeliveryTypes } from '@keycard/contract/mfa';
import { useId, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { parseRequestBody } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { Field } from '../../ui/field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { errorText, Result, useResult } from '../../ui/result.tsx';

const mfaModes = ['off', 'recommended', 'required'] as const;
type MfaMode = (typeof mfaModes)[number];
type Method = (typeof mfaDeliveryTypes)[number];

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

/** The common settings as a form; every other one (captcha, messenger…) as JSON, merged. */
export function SettingsSection({ tenant, onChange }: SectionProps) {
  const { t } = useTranslation();
  const { can } = useSession();
  const writable = can('tenants.write');
  const result = useResult();
  const settings = tenant.settings;
  const [mode, setMode] = useState<MfaMode>(settings.mfa?.mode ?? 'off');
  const [trustedDays, setTrustedDays] = useState(String(settings.mfa?.trustedDeviceDays ?? ''));
  const [methods, setMethods] = useState<Method[]>(settings.mfa?.methods ?? [...mfaDeliveryTypes]);
  const [expiry, setExpiry] = useState(String(settings.passwordExpiryDays ?? ''));
  const [warning, setWarning] = useState(String(settings.passwordWarningDays ?? ''));
  const [verification, setVerification] = useState(settings.emailVerificationRequired ?? false);
  const [analyticsId, setAnalyticsId] = useState(settings.analyticsId ?? '');
  const [json, setJson] = useState(JSON.stringify(settings, null, 2));
  const code = tenant.code;

  const patch = (body: TenantSettingsConfig) =>
    result.run(async () => {
      const changed = await adminRequest(adminOperations.updateTenantSettings, { params: { code }, body });
      onChange(changed);
      setJson(JSON.stringify(changed.settings, null, 2));
      return t('common.saved');
    });
  const saveForm = () =>
    patch({
      mfa: {
        mode,
        methods,
        ...(trustedDays.trim() ? { trustedDeviceDays: Number(trustedDays) } : {}),
      },
      passwordExpiryDays: numberOrNull(expiry),
      passwordWarningDays: numberOrNull(warning),
      emailVerificationRequired: verification,
      analyticsId: analyticsId.trim() || null,
    });
  // Checked here, so a mistake in the JSON is said before anything is sent.
  const saveJson = () => {
    let body: TenantSettingsConfig;
    try {
      body = parseRequestBody(adminOperations.updateTenantSettings.body, JSON.parse(json));
    } catch (error) {
      result.fail(errorText(t, error));
      return;
    }
    void patch(body);
  };

  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t('settings.heading')}</h2>
      <Result result={result} />
      {!writable && <p className="hint">{t('common.readOnly')}</p>}
      <PanelForm
        labelledBy="settings-heading"
        busy={result.busy}
        disabled={!writable}
        submit={t('settings.save')}
        onSubmit={() => void saveForm()}
      >
        <fieldset>
          <legend>{t('settings.mfaHeading')}</legend>
          <Field id="mfa-mode" label={t('settings.mfaMode')}>
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
          <Field id="trusted-days" label={t('settings.trustedDeviceDays')}>
            {(control) => (
              <input
                {...control}
                type="number"
                min={1}
                max={365}
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
          </fieldset>
        </fieldset>
        <fieldset>
          <legend>{t('settings.passwordHeading')}</legend>
          <Field id="password-expiry" label={t('settings.passwordExpiryDays')}>
            {(control) => (
              <input
                {...control}
                type="number"
                min={1}
                max={3650}
                value={expiry}
                onChange={(event) => setExpiry(event.target.value)}
              />
            )}
          </Field>
          <Field id="password-warning" label={t('settings.passwordWarningDays')}>
            {(control) => (
              <input
                {...control}
                type="number"
                min={0}
                max={365}
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
          <Field id="analytics-id" label={t('settings.analyticsId')}>
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
      <SettingsJson json={json} busy={result.busy} writable={writable} onEdit={setJson} onSave={saveJson} />
    </section>
  );
}

/** Every setting as JSON, for what the form above does not show; named by its heading. */
function SettingsJson({
  json,
  busy,
  writable,
  onEdit,
  onSave,
}: {
  json: string;
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
      busy={busy}
      disabled={!writable}
      submit={t('settings.jsonSave')}
      onSubmit={onSave}
    >
      <Field id="settings-json" labelledBy={headingId} hint={t('settings.jsonHint')}>
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
