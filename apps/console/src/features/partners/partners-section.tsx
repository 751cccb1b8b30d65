import { type AdminAnswer, adminOperations } from '@keycard/contract/admin-paths';
import { useCallback, useEffect, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { parseRequestBody } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { CardList } from '../../ui/card-list.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Field } from '../../ui/field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { Result, useResult } from '../../ui/result.tsx';

type Partner = AdminAnswer<typeof adminOperations.listPartners>['partners'][number];

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

function withCode(json: string, code: string): string {
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return json;
    return JSON.stringify({ ...parsed, code }, null, 2);
  } catch {
    // The JSON is being edited: leave it as it is.
    return json;
  }
}

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
  const tenantCode = tenant.code;
  const load = useCallback(async () => {
    setPartners(
      (await adminRequest(adminOperations.listPartners, { params: { code: tenantCode } })).partners,
    );
  }, [tenantCode]);
  useEffect(() => {
    void run(async () => {
      await load();
      return undefined;
    });
  }, [run, load]);

  const save = () =>
    result.run(async () => {
      const body = parseRequestBody(adminOperations.savePartner.body, JSON.parse(json));
      const answer = await adminRequest(adminOperations.savePartner, {
        params: { code: tenantCode, partnerCode: code.trim() },
        body,
      });
      await load();
      return t('partners.saved', { code: answer.partner.code });
    });
  const remove = (partnerCode: string) =>
    result.run(async () => {
      await adminRequest(adminOperations.removePartner, { params: { code: tenantCode, partnerCode } });
      await load();
      return t('partners.removed', { code: partnerCode });
    });

  return (
    <section aria-labelledby="partners-heading">
      <h2 id="partners-heading">{t('partners.heading')}</h2>
      <Result result={result} />
      {!writable && <p className="hint">{t('partners.ownersOnly')}</p>}
      <CardList
        items={partners}
        itemKey={(partner) => partner.code}
        loading={t('app.loading')}
        empty={t('partners.empty')}
        heading={(partner) => (
          <>
            {partner.displayName} (<code>{partner.code}</code>)
          </>
        )}
      >
        {(partner) => (
          <>
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
          </>
        )}
      </CardList>
      {writable && (
        <PanelForm
          heading={t('partners.formHeading')}
          busy={result.busy}
          submit={t('partners.save')}
          onSubmit={() => void save()}
        >
          <Field id="partner-code" label={t('partners.code')}>
            {(control) => (
              <input
                {...control}
                value={code}
                required
                onChange={(event) => {
                  setCode(event.target.value);
                  setJson((current) => withCode(current, event.target.value));
                }}
              />
            )}
          </Field>
          <Field id="partner-json" label={t('partners.json')} hint={t('partners.jsonHint')}>
            {(control) => (
              <textarea
                {...control}
                className="mono"
                rows={12}
                value={json}
                spellCheck={false}
                onChange={(event) => setJson(event.target.value)}
              />
            )}
          </Field>
        </PanelForm>
      )}
    </section>
  );
}
