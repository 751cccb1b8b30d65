import { adminTenantSchema } from '@keycard/contract/admin';
import { mfaDeliveryTypes } from '@keycard/contract/mfa';
import { useState } from 'react';
import { callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import type { SectionProps } from '../tenants/tenant-page.tsx';

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
  const path = `/tenants/${encodeURIComponent(tenant.code)}/settings`;

  const patch = (body: unknown) =>
    result.run(async () => {
      const changed = await callApi(path, adminTenantSchema, { method: 'PATCH', body });
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

  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t('settings.heading')}</h2>
      <Result result={result} />
      {!writable && <p className="hint">{t('common.readOnly')}</p>}
      <form
        className="panel"
        aria-labelledby="settings-heading"
        onSubmit={(event) => {
          event.preventDefault();
          void saveForm();
        }}
      >
        <fieldset disabled={!writable || result.busy} className="plain">
          <fieldset>
            <legend>{t('settings.mfaHeading')}</legend>
            <div className="field">
              <label htmlFor="mfa-mode">{t('settings.mfaMode')}</label>
              <select id="mfa-mode" value={mode} onChange={(event) => setMode(event.target.value as MfaMode)}>
                {mfaModes.map((name) => (
                  <option key={name} value={name}>
                    {t(`settings.mfaModes.${name}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="trusted-days">{t('settings.trustedDeviceDays')}</label>
              <input
                id="trusted-days"
                type="number"
                min={1}
                max={365}
                value={trustedDays}
                onChange={(event) => setTrustedDays(event.target.value)}
              />
            </div>
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
            <div className="field">
              <label htmlFor="password-expiry">{t('settings.passwordExpiryDays')}</label>
              <input
                id="password-expiry"
                type="number"
                min={1}
                max={3650}
                value={expiry}
                onChange={(event) => setExpiry(event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="password-warning">{t('settings.passwordWarningDays')}</label>
              <input
                id="password-warning"
                type="number"
                min={0}
                max={365}
                value={warning}
                onChange={(event) => setWarning(event.target.value)}
              />
            </div>
            <label className="check">
              <input
                type="checkbox"
                checked={verification}
                onChange={(event) => setVerification(event.target.checked)}
              />
              {t('settings.emailVerificationRequired')}
            </label>
            <div className="field">
              <label htmlFor="analytics-id">{t('settings.analyticsId')}</label>
              <input
                id="analytics-id"
                value={analyticsId}
                onChange={(event) => setAnalyticsId(event.target.value)}
              />
            </div>
          </fieldset>
          <button type="submit">{t('settings.save')}</button>
        </fieldset>
      </form>
      <form
        className="panel"
        aria-labelledby="settings-json-heading"
        onSubmit={(event) => {
          event.preventDefault();
          void result
            .run(async () => {
              JSON.parse(json);
              return undefined;
            })
            .then((valid) => valid && patch(JSON.parse(json)));
        }}
      >
        <h3 id="settings-json-heading">{t('settings.jsonHeading')}</h3>
        <fieldset disabled={!writable || result.busy} className="plain">
          <div className="field">
            <textarea
              id="settings-json"
              aria-labelledby="settings-json-heading"
              className="mono"
              rows={14}
              spellCheck={false}
              value={json}
              aria-describedby="settings-json-hint"
              onChange={(event) => setJson(event.target.value)}
            />
            <p id="settings-json-hint" className="hint">
              {t('settings.jsonHint')}
            </p>
          </div>
          <button type="submit">{t('settings.jsonSave')}</button>
        </fieldset>
      </form>
    </section>
  );
}
