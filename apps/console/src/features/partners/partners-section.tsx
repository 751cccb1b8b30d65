import { adminOperations } from '@keycard/contract/admin-paths';
import { useCallback, useEffect, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { CardList } from '../../ui/card-list.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { type Partner, PartnerForm } from './partner-form.tsx';

export function PartnersSection({ tenant }: SectionProps) {
  const { t } = useTranslation();
  const { can } = useSession();
  // Owners only: a partner decides whom Keycard accepts as a user (docs/admin-api.md, Roles).
  const writable = can('partners.write');
  const result = useResult();
  const { run } = result;
  const [partners, setPartners] = useState<Partner[] | null>(null);
  // The partner being changed; null: the form makes a new one.
  const [editing, setEditing] = useState<Partner | null>(null);
  const formBox = useRef<HTMLDivElement>(null);
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

  const remove = (partnerCode: string) =>
    result.run(async () => {
      await adminRequest(adminOperations.removePartner, { params: { code: tenantCode, partnerCode } });
      await load();
      return (said) => said('partners.removed', { code: partnerCode });
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
                    setEditing(partner);
                    // The form below now holds this partner: its first field takes focus.
                    requestAnimationFrame(() =>
                      formBox.current?.querySelector<HTMLElement>('input')?.focus(),
                    );
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
        <div ref={formBox}>
          <PartnerForm
            key={editing?.code ?? 'new'}
            tenantCode={tenantCode}
            partner={editing}
            result={result}
            onSaved={async () => {
              setEditing(null);
              await load();
            }}
            onCancel={editing ? () => setEditing(null) : undefined}
          />
        </div>
      )}
    </section>
  );
}
