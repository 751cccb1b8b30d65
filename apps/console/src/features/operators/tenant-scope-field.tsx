import type { AdminRole } from '@keycard/contract/admin';
import { useId } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';

/** Null: every customer tenant; a list: only those. An owner takes none (every tenant). */
export type TenantScope = string[] | null;

/**
 * Which tenants a non-owner operator may act on: every customer tenant, or the ones ticked.
 * The operator tenant is never offered (it is the owners' alone).
 */
export function TenantScopeField({
  role,
  scope,
  tenants,
  error,
  onChange,
}: {
  role: AdminRole;
  scope: TenantScope;
  /** Every customer tenant's code. */
  tenants: string[];
  /** A refusal of the scope, in words. */
  error?: string;
  onChange: (scope: TenantScope) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  if (role === 'owner') return <p className="hint">{t('operators.scopeOwner')}</p>;
  const missing = scope !== null && scope.length === 0;
  // The first choice carries the refusal, so the focus that goes to the first field to fix lands here.
  const invalid = error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
  return (
    <fieldset aria-describedby={missing ? `${id}-missing` : undefined}>
      <legend>{t('operators.scope')}</legend>
      <label className="check">
        <input
          type="radio"
          name={`${id}-scope`}
          checked={scope === null}
          {...invalid}
          onChange={() => onChange(null)}
        />
        {t('operators.scopeAll')}
      </label>
      <label className="check">
        <input
          type="radio"
          name={`${id}-scope`}
          checked={scope !== null}
          onChange={() => onChange(scope ?? [])}
        />
        {t('operators.scopeSome')}
      </label>
      {scope !== null && (
        <ul className="scope-list">
          {tenants.map((code) => (
            <li key={code}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={scope.includes(code)}
                  onChange={(event) =>
                    onChange(event.target.checked ? [...scope, code] : scope.filter((c) => c !== code))
                  }
                />
                <code>{code}</code>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {missing && (
        <p id={`${id}-missing`} className="field-error">
          {t('operators.scopeMissing')}
        </p>
      )}
    </fieldset>
  );
}

/** What the API takes for a role and a scope: an owner's tenants are always null. */
export function scopeFor(role: AdminRole, scope: TenantScope): TenantScope {
  return role === 'owner' ? null : scope;
}
