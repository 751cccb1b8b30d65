import { type AdminAnswer, adminOperations } from '@keycard/contract/admin-paths';
import { useCallback, useEffect, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { CardList } from '../../ui/card-list.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Result, useResult } from '../../ui/result.tsx';

type SigningKey = AdminAnswer<typeof adminOperations.listSigningKeys>['keys'][number];

export function SigningKeysSection({ tenant }: SectionProps) {
  const { t, language } = useTranslation();
  const { can } = useSession();
  const writable = can('tenants.write');
  const result = useResult();
  const { run } = result;
  const [keys, setKeys] = useState<SigningKey[] | null>(null);
  const code = tenant.code;
  const load = useCallback(
    async () => setKeys((await adminRequest(adminOperations.listSigningKeys, { params: { code } })).keys),
    [code],
  );
  useEffect(() => {
    void run(async () => {
      await load();
      return undefined;
    });
  }, [run, load]);

  const rotate = () =>
    result.run(async () => {
      setKeys((await adminRequest(adminOperations.rotateSigningKey, { params: { code } })).keys);
      return (said) => said('keys.rotated');
    });
  const retire = (kid: string) =>
    result.run(async () => {
      setKeys((await adminRequest(adminOperations.retireSigningKey, { params: { code, kid } })).keys);
      return (said) => said('keys.retired', { kid });
    });

  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">{t('keys.heading')}</h2>
      <p className="hint">{t('keys.intro')}</p>
      <Result result={result} />
      {writable && (
        <ConfirmButton danger={false} question={t('keys.rotateQuestion')} onConfirm={() => void rotate()}>
          {t('keys.rotate')}
        </ConfirmButton>
      )}
      <CardList
        items={keys}
        itemKey={(key) => key.kid}
        loading={t('app.loading')}
        empty={t('keys.empty')}
        heading={(key) => <code className="wrap">{key.kid}</code>}
      >
        {(key) => (
          <>
            <p>
              <span className={key.active ? 'badge badge-on' : 'badge badge-off'}>
                {key.active ? t('keys.active') : t('keys.older')}
              </span>
            </p>
            <p>
              {t('keys.created')}: {new Date(key.createdAt).toLocaleString(language)}
            </p>
            {writable && !key.active && (
              <ConfirmButton
                label={`${t('keys.retire')}: ${key.kid}`}
                question={t('keys.retireQuestion', { kid: key.kid })}
                onConfirm={() => void retire(key.kid)}
              >
                {t('keys.retire')}
              </ConfirmButton>
            )}
          </>
        )}
      </CardList>
    </section>
  );
}
