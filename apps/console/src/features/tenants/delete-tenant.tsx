import { adminTenantDeleteResponse } from '@keycard/contract/admin';
import { useNavigate } from '@keycard/web/router';
import { useId, useState } from 'react';
import { consolePaths } from '../../app/paths.ts';
import { callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import type { TenantListState } from './tenant-list-page.tsx';

/**
 * Deleting a tenant, for owners: the operator types the tenant's code (the API takes it as
 * `confirm` too), so a removal is never one slip away. Back on the list, the outcome is said.
 */
export function DeleteTenant({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const result = useResult();
  const [typed, setTyped] = useState('');
  const id = useId();
  const matches = typed.trim() === code;

  const remove = () =>
    result.run(async () => {
      const gone = await callApi(`/tenants/${encodeURIComponent(code)}`, adminTenantDeleteResponse, {
        method: 'DELETE',
        body: { confirm: typed.trim() },
      });
      const state: TenantListState = { notice: t('tenants.deleted', { ...gone }) };
      navigate(consolePaths.home, { state });
      return undefined;
    });

  return (
    <form
      className="panel danger-zone"
      aria-labelledby={`${id}-heading`}
      onSubmit={(event) => {
        event.preventDefault();
        if (matches) void remove();
      }}
    >
      <h3 id={`${id}-heading`}>{t('deleteTenant.heading')}</h3>
      <p id={`${id}-explanation`}>{t('deleteTenant.explanation', { code })}</p>
      <Result result={result} />
      <fieldset disabled={result.busy} className="plain">
        <div className="field">
          <label htmlFor={`${id}-confirm`}>{t('deleteTenant.confirmLabel', { code })}</label>
          <input
            id={`${id}-confirm`}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-explanation`}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <button type="submit" className="button-danger" disabled={!matches}>
          {t('deleteTenant.button', { code })}
        </button>
      </fieldset>
    </form>
  );
}
