import {
  type AdminRole,
  adminEmptyResponse,
  adminMachineClientResponse,
  adminOperatorInviteResponse,
  adminOperatorListResponse,
  adminOperatorResponse,
  adminRoles,
  adminTenantListResponse,
  operatorTenantCode,
} from '@keycard/contract/admin';
import type { Locale } from '@keycard/contract/user-state';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { callApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { LanguageField } from '../../ui/language-field.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { scopeFor, type TenantScope, TenantScopeField } from './tenant-scope-field.tsx';

type Operator = z.infer<typeof adminOperatorListResponse>['operators'][number];

function RoleSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: AdminRole;
  onChange: (role: AdminRole) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor={id}>{t('operators.role')}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as AdminRole)}>
        {adminRoles.map((role) => (
          <option key={role} value={role}>
            {t(`roles.${role}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Owners manage who may use the console and the admin API (`operators.manage`). */
export function OperatorsPage() {
  const { t, language } = useTranslation();
  const { me, can } = useSession();
  const result = useResult();
  const { run } = result;
  const [operators, setOperators] = useState<Operator[] | null>(null);
  const [tenants, setTenants] = useState<string[]>([]);
  const [secret, setSecret] = useState<{ clientId: string; secret: string } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const secretBox = useRef<HTMLDivElement>(null);
  // A new machine's secret is at the top of the page: focus goes there, to be copied.
  useEffect(() => {
    if (secret) secretBox.current?.focus();
  }, [secret]);

  useEffect(() => {
    document.title = `${t('operators.heading')} | ${t('app.title')}`;
  }, [t]);
  const load = useCallback(
    () =>
      run(async () => {
        const [list, known] = await Promise.all([
          callApi('/operators', adminOperatorListResponse),
          callApi('/tenants', adminTenantListResponse),
        ]);
        setOperators(list.operators);
        setTenants(known.tenants.map((tenant) => tenant.code).filter((code) => code !== operatorTenantCode));
        return undefined;
      }),
    [run],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const nameOf = (operator: Operator) => {
    const name =
      operator.kind === 'client'
        ? operator.subject
        : (operator.email ?? t('operators.person', { id: operator.subject }));
    return operator.id === me?.operator.id ? t('operators.you', { name }) : name;
  };
  /** Closes a card's form; focus goes back to the button that opened it. */
  const stopEditing = (id: string) => {
    setEditing(null);
    requestAnimationFrame(() => document.getElementById(`edit-${id}`)?.focus());
  };
  const replace = (changed: Operator) =>
    setOperators((current) => (current ?? []).map((o) => (o.id === changed.id ? changed : o)));

  const remove = (operator: Operator) =>
    result.run(async () => {
      await callApi(`/operators/${operator.id}`, adminEmptyResponse, { method: 'DELETE' });
      setOperators((current) => (current ?? []).filter((o) => o.id !== operator.id));
      // Its card (and the button that had focus) is gone: focus goes to the list's heading.
      listHeading.current?.focus();
      return t('operators.removed', { name: nameOf(operator) });
    });

  if (me && !can('operators.manage')) {
    return (
      <>
        <h1 tabIndex={-1}>{t('operators.heading')}</h1>
        <p role="alert" className="notice notice-error">
          {t('errors.admin.forbidden')}
        </p>
      </>
    );
  }

  return (
    <>
      <h1 tabIndex={-1}>{t('operators.heading')}</h1>
      <p>{t('operators.intro')}</p>
      <Result result={result} />
      {secret && (
        <div ref={secretBox} tabIndex={-1}>
          <SecretOnce
            level={2}
            owner={secret.clientId}
            secret={secret.secret}
            onDone={() => {
              setSecret(null);
              listHeading.current?.focus();
            }}
          />
        </div>
      )}
      <section aria-labelledby="operators-list-heading">
        <h2 id="operators-list-heading" ref={listHeading} tabIndex={-1}>
          {t('operators.listHeading')}
        </h2>
        {operators === null ? (
          <p>{t('app.loading')}</p>
        ) : (
          <ul className="cards" aria-label={t('operators.count', { count: operators.length })}>
            {operators.map((operator) => (
              <li key={operator.id} className="card" aria-labelledby={`operator-${operator.id}`}>
                <h3 id={`operator-${operator.id}`} className="wrap">
                  {nameOf(operator)}
                </h3>
                <dl>
                  <div>
                    <dt>{t('operators.kind')}</dt>
                    <dd>{t(`operators.kinds.${operator.kind}`)}</dd>
                  </div>
                  <div>
                    <dt>{t('operators.role')}</dt>
                    <dd>{t(`roles.${operator.role}`)}</dd>
                  </div>
                  <div>
                    <dt>{t('operators.tenants')}</dt>
                    <dd className="wrap">
                      {operator.role === 'owner'
                        ? t('operators.everyTenant')
                        : (operator.tenants?.join(', ') ?? t('operators.everyCustomerTenant'))}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('operators.created')}</dt>
                    <dd>{new Date(operator.createdAt).toLocaleDateString(language)}</dd>
                  </div>
                </dl>
                {editing === operator.id ? (
                  <EditOperator
                    operator={operator}
                    name={nameOf(operator)}
                    tenants={tenants}
                    busy={result.busy}
                    onCancel={() => stopEditing(operator.id)}
                    onSave={(role, scope) =>
                      result.run(async () => {
                        const answer = await callApi(`/operators/${operator.id}`, adminOperatorResponse, {
                          method: 'PATCH',
                          body: { role, tenants: scopeFor(role, scope) },
                        });
                        replace(answer.operator);
                        stopEditing(operator.id);
                        return t('operators.saved', { name: nameOf(operator), role: t(`roles.${role}`) });
                      })
                    }
                  />
                ) : (
                  <div className="actions">
                    <button
                      type="button"
                      id={`edit-${operator.id}`}
                      className="button-secondary"
                      aria-label={`${t('operators.edit')}: ${nameOf(operator)}`}
                      onClick={() => setEditing(operator.id)}
                    >
                      {t('operators.edit')}
                    </button>
                    <ConfirmButton
                      label={`${t('operators.remove')}: ${nameOf(operator)}`}
                      question={t('operators.removeQuestion', { name: nameOf(operator) })}
                      confirmLabel={t('operators.removeFor', { name: nameOf(operator) })}
                      onConfirm={() => void remove(operator)}
                    >
                      {t('operators.remove')}
                    </ConfirmButton>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <InvitePerson
        tenants={tenants}
        busy={result.busy}
        onInvite={(email, role, scope, locale) =>
          result.run(async () => {
            const answer = await callApi('/operators/people', adminOperatorInviteResponse, {
              method: 'POST',
              body: { email, role, tenants: scopeFor(role, scope), locale },
            });
            setOperators((current) => [
              ...(current ?? []).filter((o) => o.id !== answer.operator.id),
              answer.operator,
            ]);
            return t(answer.created ? 'operators.invited' : 'operators.invitedAgain', { email });
          })
        }
      />
      <CreateMachine
        tenants={tenants}
        busy={result.busy}
        onCreate={(clientId, role, scope) =>
          result.run(async () => {
            const answer = await callApi('/operators/clients', adminMachineClientResponse, {
              method: 'POST',
              body: { clientId, role, tenants: scopeFor(role, scope) },
            });
            setOperators((current) => [...(current ?? []), answer.operator]);
            setSecret({ clientId: answer.clientId, secret: answer.secret });
            return t('operators.machineCreated', { clientId: answer.clientId });
          })
        }
      />
    </>
  );
}

function EditOperator({
  operator,
  name,
  tenants,
  busy,
  onCancel,
  onSave,
}: {
  operator: Operator;
  name: string;
  tenants: string[];
  busy: boolean;
  onCancel: () => void;
  onSave: (role: AdminRole, scope: TenantScope) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [role, setRole] = useState<AdminRole>(operator.role);
  const [scope, setScope] = useState<TenantScope>(operator.tenants);
  const first = useRef<HTMLFormElement>(null);
  useEffect(() => first.current?.querySelector('select')?.focus(), []);
  const missing = role !== 'owner' && scope !== null && scope.length === 0;
  return (
    <form
      ref={first}
      className="operator-edit"
      aria-label={t('operators.editFor', { name })}
      onSubmit={(event) => {
        event.preventDefault();
        if (!missing) void onSave(role, scope);
      }}
    >
      <fieldset disabled={busy} className="plain">
        <RoleSelect id={`edit-role-${operator.id}`} value={role} onChange={setRole} />
        <TenantScopeField role={role} scope={scope} tenants={tenants} onChange={setScope} />
        <div className="actions">
          <button type="submit" disabled={missing}>
            {t('operators.save')}
          </button>
          <button type="button" className="button-secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </div>
      </fieldset>
    </form>
  );
}

function InvitePerson({
  tenants,
  busy,
  onInvite,
}: {
  tenants: string[];
  busy: boolean;
  onInvite: (email: string, role: AdminRole, scope: TenantScope, locale: Locale) => Promise<boolean>;
}) {
  const { t, language } = useTranslation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AdminRole>('tenant_admin');
  const [scope, setScope] = useState<TenantScope>(null);
  const [locale, setLocale] = useState<Locale>(language);
  const missing = role !== 'owner' && scope !== null && scope.length === 0;
  return (
    <form
      className="panel"
      aria-labelledby="operator-invite-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (missing) return;
        void onInvite(email.trim(), role, scope, locale).then((done) => done && setEmail(''));
      }}
    >
      <h2 id="operator-invite-heading">{t('operators.inviteHeading')}</h2>
      <fieldset disabled={busy} className="plain">
        <div className="field">
          <label htmlFor="operator-email">{t('operators.email')}</label>
          <input
            id="operator-email"
            type="email"
            autoComplete="off"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <RoleSelect id="operator-invite-role" value={role} onChange={setRole} />
        <TenantScopeField role={role} scope={scope} tenants={tenants} onChange={setScope} />
        <LanguageField
          id="operator-locale"
          label={t('operators.language')}
          value={locale}
          onChange={setLocale}
        />
        <button type="submit" disabled={missing}>
          {t('operators.invite')}
        </button>
      </fieldset>
    </form>
  );
}

function CreateMachine({
  tenants,
  busy,
  onCreate,
}: {
  tenants: string[];
  busy: boolean;
  onCreate: (clientId: string, role: AdminRole, scope: TenantScope) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [clientId, setClientId] = useState('');
  const [role, setRole] = useState<AdminRole>('tenant_admin');
  const [scope, setScope] = useState<TenantScope>(null);
  const missing = role !== 'owner' && scope !== null && scope.length === 0;
  return (
    <form
      className="panel"
      aria-labelledby="operator-machine-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (missing) return;
        void onCreate(clientId.trim(), role, scope).then((done) => done && setClientId(''));
      }}
    >
      <h2 id="operator-machine-heading">{t('operators.machineHeading')}</h2>
      <p className="hint">{t('operators.machineHint')}</p>
      <fieldset disabled={busy} className="plain">
        <div className="field">
          <label htmlFor="operator-client-id">{t('operators.clientId')}</label>
          <input
            id="operator-client-id"
            autoComplete="off"
            spellCheck={false}
            required
            value={clientId}
            onChange={(event) => setClientId(event.target.value)}
          />
        </div>
        <RoleSelect id="operator-machine-role" value={role} onChange={setRole} />
        <TenantScopeField role={role} scope={scope} tenants={tenants} onChange={setScope} />
        <button type="submit" disabled={missing}>
          {t('operators.createMachine')}
        </button>
      </fieldset>
    </form>
  );
}
