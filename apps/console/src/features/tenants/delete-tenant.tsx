import { adminOperations } from '@keycard/contract/admin-paths';
import { useNavigate } from '@keycard/web/router';
import { useId, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { consolePaths } from '../../lib/paths.ts';
import { Field } from '../../ui/field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
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
      const gone = await adminRequest(adminOperations.deleteTenant, {
        params: { code },
        body: { confirm: typed.trim() },
      });
      const state: TenantListState = { deleted: { ...gone } };
      navigate(consolePaths.home, { state });
      return undefined;
    });

  return (
    <PanelForm
      className="panel danger-zone"
      heading={t('deleteTenant.heading')}
      intro={
        <>
          <p id={`${id}-explanation`}>{t('deleteTenant.explanation', { code })}</p>
          <Result result={result} />
        </>
      }
      busy={result.busy}
      danger
      submit={t('deleteTenant.button', { code })}
      submitDisabled={!matches}
      onSubmit={() => {
        if (matches) void remove();
      }}
    >
      <Field
        id={`${id}-confirm`}
        label={t('deleteTenant.confirmLabel', { code })}
        describedBy={`${id}-explanation`}
      >
        {(control) => (
          <input
            {...control}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setTyped(event.target.value)}
          />
        )}
      </Field>
    </PanelForm>
  );
}
