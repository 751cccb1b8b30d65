import { adminEmptyResponse, adminPartnerListResponse, adminPartnerResponse } from '@keycard/contract/admin';
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import type { SectionProps } from '../tenants/tenant-page.tsx';

type Partner = z.infer<typeof adminPartnerListResponse>['partners'][number];

const template = (code: string) =>
  JSON.stringify(
    {
      code,
      displayName: '',
      issuer: 'https://partner.example',
      jwks: { keys: [] },
      jwksUri: null,
    },
    null,
    2,
  );

export function PartnersSection({ tenant }: SectionProps) {
  const { t } = useTranslation();
  const { can } = useSession();
  // Owners only: a partner decides whom Keycard accepts as a user (docs/admin-api.md, Roles).
  const writable = can('partners.write');
  const result = useResult();
  const { run } = result;
  const [partners, setPartners] = useState<Partner[] | null>(null);
  const [code, setCode] = useState('');
  const [json, setJson] = useState(template(''));
  const base = `/tenants/${encodeURIComponent(tenant.code)}/partners`;
  const load = useCallback(async () => {
    setPartners((await callApi(base, adminPartnerListResponse)).partners);
  }, [base]);
  useEffect(() => {
    void run(async () => {
      await load();
      return undefined;
    });
  }, [run, load]);

  const save = () =>
    result.run(async () => {
      const body = JSON.parse(json) as unknown;
      const answer = await callApi(`${base}/${encodeURIComponent(code.trim())}`, adminPartnerResponse, {
        method: 'PUT',
        body,
      });
      await load();
      return t('partners.saved', { code: answer.partner.code });
    });
  const remove = (partnerCode: string) =>
    result.run(async () => {
      await callApi(`${base}/${encodeURIComponent(partnerCode)}`, adminEmptyResponse, { method: 'DELETE' });
      await load();
      return t('partners.removed', { code: partnerCode });
    });

  return (
    <section aria-labelledby="partners-heading">
      <h2 id="partners-heading">{t('partners.heading')}</h2>
      <Result result={result} />
      {!writable && <p className="hint">{t('partners.ownersOnly')}</p>}
      {partners === null ? (
        <p>{t('app.loading')}</p>
      ) : partners.length === 0 ? (
        <p>{t('partners.empty')}</p>
      ) : (
        <ul className="cards">
          {partners.map((partner) => (
            <li key={partner.code} className="card">
              <h3>
                {partner.displayName} (<code>{partner.code}</code>)
              </h3>
              <p className="wrap">
                {t('partners.issuer')}: {partner.issuer}
              </p>
              {writable && (
                <div className="actions">
                  <button
                    type="button"
                    className="button-secondary"
                    aria-label={`${t('common.edit')}: ${partner.code}`}
                    onClick={() => {
                      setCode(partner.code);
                      setJson(JSON.stringify(partner, null, 2));
                      document.getElementById('partner-json')?.focus();
                    }}
                  >
                    {t('common.edit')}
                  </button>
                  <ConfirmButton
                    label={`${t('partners.remove')}: ${partner.code}`}
                    question={t('partners.removeQuestion', { code: partner.code })}
                    onConfirm={() => void remove(partner.code)}
                  >
                    {t('partners.remove')}
                  </ConfirmButton>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {writable && (
        <form
          className="panel"
          aria-labelledby="partner-form-heading"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <h3 id="partner-form-heading">{t('partners.formHeading')}</h3>
          <fieldset disabled={result.busy} className="plain">
            <div className="field">
              <label htmlFor="partner-code">{t('partners.code')}</label>
              <input
                id="partner-code"
                value={code}
                required
                onChange={(event) => {
                  setCode(event.target.value);
                  try {
                    const parsed = JSON.parse(json) as Record<string, unknown>;
                    setJson(JSON.stringify({ ...parsed, code: event.target.value }, null, 2));
                  } catch {
                    // The JSON is being edited: leave it as it is.
                  }
                }}
              />
            </div>
            <div className="field">
              <label htmlFor="partner-json">{t('partners.json')}</label>
              <textarea
                id="partner-json"
                className="mono"
                rows={12}
                value={json}
                spellCheck={false}
                aria-describedby="partner-json-hint"
                onChange={(event) => setJson(event.target.value)}
              />
              <p id="partner-json-hint" className="hint">
                {t('partners.jsonHint')}
              </p>
            </div>
            <button type="submit">{t('partners.save')}</button>
          </fieldset>
        </form>
      )}
    </section>
  );
}
