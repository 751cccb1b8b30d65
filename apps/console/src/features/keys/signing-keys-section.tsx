import { adminSigningKeyListResponse } from '@keycard/contract/admin';
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import type { SectionProps } from '../tenants/tenant-page.tsx';

type SigningKey = z.infer<typeof adminSigningKeyListResponse>['keys'][number];

export function SigningKeysSection({ tenant }: SectionProps) {
  const { t, language } = useTranslation();
  const { can } = useSession();
  const writable = can('tenants.write');
  const result = useResult();
  const { run } = result;
  const [keys, setKeys] = useState<SigningKey[] | null>(null);
  const base = `/tenants/${encodeURIComponent(tenant.code)}/signing-keys`;
  const load = useCallback(
    async () => setKeys((await callApi(base, adminSigningKeyListResponse)).keys),
    [base],
  );
  useEffect(() => {
    void run(async () => {
      await load();
      return undefined;
    });
  }, [run, load]);

  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">{t('keys.heading')}</h2>
      <p className="hint">{t('keys.intro')}</p>
      <Result result={result} />
      {writable && (
        <ConfirmButton
          danger={false}
          question={t('keys.rotateQuestion')}
          onConfirm={() =>
            void result.run(async () => {
              setKeys(
                (await callApi(`${base}/rotate`, adminSigningKeyListResponse, { method: 'POST' })).keys,
              );
              return t('keys.rotated');
            })
          }
        >
          {t('keys.rotate')}
        </ConfirmButton>
      )}
      {keys === null ? (
        <p>{t('app.loading')}</p>
      ) : keys.length === 0 ? (
        <p>{t('keys.empty')}</p>
      ) : (
        <ul className="cards">
          {keys.map((key) => (
            <li key={key.kid} className="card">
              <h3>
                <code className="wrap">{key.kid}</code>
              </h3>
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
                  onConfirm={() =>
                    void result.run(async () => {
                      const answer = await callApi(
                        `${base}/${encodeURIComponent(key.kid)}`,
                        adminSigningKeyListResponse,
                        {
                          method: 'DELETE',
                        },
                      );
                      setKeys(answer.keys);
                      return t('keys.retired', { kid: key.kid });
                    })
                  }
                >
                  {t('keys.retire')}
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
