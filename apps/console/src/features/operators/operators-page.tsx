import { type AdminRole, adminRoles, operatorTenantCode } from '@keycard/contract/admin';
import { type AdminAnswer, adminOperations } from '@keycard/contract/admin-paths';
import type { Locale } from '@keycard/contract/user-state';
import { useCallback, useEffect, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { CardList } from '../../ui/card-list.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Field } from '../../ui/field.tsx';
import { LanguageField } from '../../ui/language-field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { scopeFor, type TenantScope, TenantScopeField } from './tenant-scope-field.tsx';

type Operator = AdminAnswer<typeof adminOperations.listOperators>['operators'][number];

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
    <Field id={id} label={t('operators.role')}>
      {(control) => (
        <select
          {...control}
          value={value}
          onChange={(event) => onChange(adminRoles.find((role) => role === event.target.value) ?? value)}
        >
          {adminRoles.map((role) => (
            <option key={role} value={role}>
              {t(`roles.${role}`)}
            </option>
          ))}
        </select>
      )}
    </Field>
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
          adminRequest(adminOperations.listOperators),
          adminRequest(adminOperations.listTenants),
        ]);
        setOperators(list.operators);
        setTenants(known.tenants.map((tenant) => tenant.code).filter((code) => code !== operatorTenantCode));
        return undefined;
      }),
    [run],
  );
  // Until /me says the role may manage operators, nothing is asked or offered (docs/console.md).
  const allowed = can('operators.manage');
  useEffect(() => {
    if (allowed) void load();
  }, [allowed, load]);

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
      await adminRequest(adminOperations.removeOperator, { params: { id: operator.id } });
      setOperators((current) => (current ?? []).filter((o) => o.id !== operator.id));
      // Its card (and the button that had focus) is gone: focus goes to the list's heading.
      listHeading.current?.focus();
      return t('operators.removed', { name: nameOf(operator) });
    });

  if (!allowed) {
    return (
      <>
        <h1 tabIndex={-1}>{t('operators.heading')}</h1>
        {me && (
          <p role="alert" className="notice notice-error">
            {t('errors.admin.forbidden')}
          </p>
        )}
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
        <CardList
          items={operators}
          itemKey={(operator) => operator.id}
          loading={t('app.loading')}
          label={t('operators.count', { count: operators?.length ?? 0 })}
          heading={nameOf}
          headingClassName="wrap"
          facts={(operator) => [
            { label: t('operators.kind'), value: t(`operators.kinds.${operator.kind}`) },
            { label: t('operators.role'), value: t(`roles.${operator.role}`) },
            {
              label: t('operators.tenants'),
              value:
                operator.role === 'owner'
                  ? t('operators.everyTenant')
                  : (operator.tenants?.join(', ') ?? t('operators.everyCustomerTenant')),
              wrap: true,
            },
            {
              label: t('operators.created'),
              value: new Date(operator.createdAt).toLocaleDateString(language),
            },
          ]}
        >
          {(operator) =>
            editing === operator.id ? (
              <EditOperator
                operator={operator}
                name={nameOf(operator)}
                tenants={tenants}
                busy={result.busy}
                onCancel={() => stopEditing(operator.id)}
                onSave={(role, scope) =>
                  result.run(async () => {
                    const answer = await adminRequest(adminOperations.updateOperator, {
                      params: { id: operator.id },
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
            )
          }
        </CardList>
      </section>
      <InvitePerson
        tenants={tenants}
        busy={result.busy}
        onInvite={(email, role, scope, locale) =>
          result.run(async () => {
            const answer = await adminRequest(adminOperations.inviteOperator, {
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
            const answer = await adminRequest(adminOperations.createMachineOperator, {
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
    <PanelForm
      formRef={first}
      className="operator-edit"
      label={t('operators.editFor', { name })}
      busy={busy}
      submit={t('operators.save')}
      submitDisabled={missing}
      actions={
        <button type="button" className="button-secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      }
      onSubmit={() => {
        if (!missing) void onSave(role, scope);
      }}
    >
      <RoleSelect id={`edit-role-${operator.id}`} value={role} onChange={setRole} />
      <TenantScopeField role={role} scope={scope} tenants={tenants} onChange={setScope} />
    </PanelForm>
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
    <PanelForm
      heading={t('operators.inviteHeading')}
      level={2}
      busy={busy}
      submit={t('operators.invite')}
      submitDisabled={missing}
      onSubmit={() => {
        if (missing) return;
        void onInvite(email.trim(), role, scope, locale).then((done) => done && setEmail(''));
      }}
    >
      <Field id="operator-email" label={t('operators.email')}>
        {(control) => (
          <input
            {...control}
            type="email"
            autoComplete="off"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        )}
      </Field>
      <RoleSelect id="operator-invite-role" value={role} onChange={setRole} />
      <TenantScopeField role={role} scope={scope} tenants={tenants} onChange={setScope} />
      <LanguageField
        id="operator-locale"
        label={t('operators.language')}
        value={locale}
        onChange={setLocale}
      />
    </PanelForm>
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
    <PanelForm
      heading={t('operators.machineHeading')}
      level={2}
      intro={<p className="hint">{t('operators.machineHint')}</p>}
      busy={busy}
      submit={t('operators.createMachine')}
      submitDisabled={missing}
      onSubmit={() => {
        if (missing) return;
        void onCreate(clientId.trim(), role, scope).then((done) => done && setClientId(''));
      }}
    >
      <Field id="operator-client-id" label={t('operators.clientId')}>
        {(control) => (
          <input
            {...control}
            autoComplete="off"
            spellCheck={false}
            required
            value={clientId}
            onChange={(event) => setClientId(event.target.value)}
          />
        )}
      </Field>
      <RoleSelect id="operator-machine-role" value={role} onChange={setRole} />
      <TenantScopeField role={role} scope={scope} tenants={tenants} onChange={setScope} />
    </PanelForm>
  );
}
