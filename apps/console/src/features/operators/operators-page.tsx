import { type AdminRole, adminRoles, operatorTenantCode } from '@keycard/contract/admin';
import { type AdminAnswer, adminOperations } from '@keycard/contract/admin-paths';
import type { Locale } from '@keycard/contract/user-state';
import { useCallback, useEffect, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { type Translate, useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { CardList } from '../../ui/card-list.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Field } from '../../ui/field.tsx';
import { type FieldPlace, useFieldErrors } from '../../ui/field-errors.ts';
import { LanguageField } from '../../ui/language-field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { Result, type ResultState, type Saying, useResult } from '../../ui/result.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { scopeFor, type TenantScope, TenantScopeField } from './tenant-scope-field.tsx';

type Operator = AdminAnswer<typeof adminOperations.listOperators>['operators'][number];

/** Where an operator form's refusal is: each body field is the form's field of that name. */
function placeOf(path: string[]): FieldPlace | null {
  const [first] = path;
  return first === 'email' || first === 'clientId' || first === 'role' || first === 'tenants'
    ? { field: first }
    : null;
}

function RoleSelect({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: AdminRole;
  error?: string;
  onChange: (role: AdminRole) => void;
}) {
  const { t } = useTranslation();
  return (
    <Field id={id} label={t('operators.role')} invalid={Boolean(error)} error={error}>
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

  const nameOf = (operator: Operator, said: Translate = t) => {
    const name =
      operator.kind === 'client'
        ? operator.subject
        : (operator.email ?? said('operators.person', { id: operator.subject }));
    return operator.id === me?.operator.id ? said('operators.you', { name }) : name;
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
      return (said) => said('operators.removed', { name: nameOf(operator, said) });
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
                result={result}
                onCancel={() => stopEditing(operator.id)}
                onSave={async (role, scope) => {
                  const answer = await adminRequest(adminOperations.updateOperator, {
                    params: { id: operator.id },
                    body: { role, tenants: scopeFor(role, scope) },
                  });
                  replace(answer.operator);
                  stopEditing(operator.id);
                  return (said) =>
                    said('operators.saved', { name: nameOf(operator, said), role: said(`roles.${role}`) });
                }}
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
        result={result}
        onInvite={async (email, role, scope, locale) => {
          const answer = await adminRequest(adminOperations.inviteOperator, {
            body: { email, role, tenants: scopeFor(role, scope), locale },
          });
          setOperators((current) => [
            ...(current ?? []).filter((o) => o.id !== answer.operator.id),
            answer.operator,
          ]);
          const created = answer.created;
          return (said) => said(created ? 'operators.invited' : 'operators.invitedAgain', { email });
        }}
      />
      <CreateMachine
        tenants={tenants}
        result={result}
        onCreate={async (clientId, role, scope) => {
          const answer = await adminRequest(adminOperations.createMachineOperator, {
            body: { clientId, role, tenants: scopeFor(role, scope) },
          });
          setOperators((current) => [...(current ?? []), answer.operator]);
          setSecret({ clientId: answer.clientId, secret: answer.secret });
          const created = answer.clientId;
          return (said) => said('operators.machineCreated', { clientId: created });
        }}
      />
    </>
  );
}

function EditOperator({
  operator,
  name,
  tenants,
  result,
  onCancel,
  onSave,
}: {
  operator: Operator;
  name: string;
  tenants: string[];
  result: ResultState;
  onCancel: () => void;
  /** Sends the change; answers the outcome's text. */
  onSave: (role: AdminRole, scope: TenantScope) => Promise<Saying>;
}) {
  const { t } = useTranslation();
  const [role, setRole] = useState<AdminRole>(operator.role);
  const [scope, setScope] = useState<TenantScope>(operator.tenants);
  const first = useRef<HTMLFormElement>(null);
  const { errors, clear, refuse } = useFieldErrors(first, result.busy);
  useEffect(() => first.current?.querySelector('select')?.focus(), []);
  const missing = role !== 'owner' && scope !== null && scope.length === 0;
  const labelsIn = (said: Translate) => ({ role: said('operators.role'), tenants: said('operators.scope') });
  const save = () =>
    result.run(async () => {
      clear();
      try {
        return await onSave(role, scope);
      } catch (error) {
        // The last owner keeps the role: said at the role, which is what to change back.
        return refuse(t, error, placeOf, labelsIn, {
          'admin.last_owner': { field: 'role', text: 'fieldErrors.lastOwner' },
        });
      }
    });
  return (
    <PanelForm
      formRef={first}
      className="operator-edit"
      label={t('operators.editFor', { name })}
      busy={result.busy}
      submit={t('operators.save')}
      submitDisabled={missing}
      actions={
        <button type="button" className="button-secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      }
      onSubmit={() => {
        if (!missing) void save();
      }}
    >
      <RoleSelect id={`edit-role-${operator.id}`} value={role} error={errors.role} onChange={setRole} />
      <TenantScopeField
        role={role}
        scope={scope}
        tenants={tenants}
        error={errors.tenants}
        onChange={setScope}
      />
    </PanelForm>
  );
}

function InvitePerson({
  tenants,
  result,
  onInvite,
}: {
  tenants: string[];
  result: ResultState;
  /** Sends the invitation; answers the outcome's text. */
  onInvite: (email: string, role: AdminRole, scope: TenantScope, locale: Locale) => Promise<Saying>;
}) {
  const { t, language } = useTranslation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AdminRole>('tenant_admin');
  const [scope, setScope] = useState<TenantScope>(null);
  // The console's language until the owner picks one: a language switch moves it along.
  const [picked, setLocale] = useState<Locale | null>(null);
  const locale = picked ?? language;
  const form = useRef<HTMLFormElement>(null);
  const { errors, clear, refuse, reject } = useFieldErrors(form, result.busy);
  const missing = role !== 'owner' && scope !== null && scope.length === 0;
  const labelsIn = (said: Translate) => ({
    email: said('operators.email'),
    role: said('operators.role'),
    tenants: said('operators.scope'),
  });
  const labels = labelsIn(t);
  const invite = () =>
    result.run(async () => {
      clear();
      reject(
        t,
        (said): Record<string, string> => (email.trim() ? {} : { email: said('fieldErrors.required') }),
        labelsIn,
      );
      try {
        const text = await onInvite(email.trim(), role, scope, locale);
        setEmail('');
        return text;
      } catch (error) {
        return refuse(t, error, placeOf, labelsIn, {
          'admin.operator_exists': { field: 'email', text: 'fieldErrors.personTaken' },
        });
      }
    });
  return (
    <PanelForm
      heading={t('operators.inviteHeading')}
      level={2}
      formRef={form}
      busy={result.busy}
      submit={t('operators.invite')}
      submitDisabled={missing}
      onSubmit={() => {
        if (!missing) void invite();
      }}
    >
      <Field id="operator-email" label={labels.email} invalid={Boolean(errors.email)} error={errors.email}>
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
      <RoleSelect id="operator-invite-role" value={role} error={errors.role} onChange={setRole} />
      <TenantScopeField
        role={role}
        scope={scope}
        tenants={tenants}
        error={errors.tenants}
        onChange={setScope}
      />
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
  result,
  onCreate,
}: {
  tenants: string[];
  result: ResultState;
  /** Creates the client; answers the outcome's text. */
  onCreate: (clientId: string, role: AdminRole, scope: TenantScope) => Promise<Saying>;
}) {
  const { t } = useTranslation();
  const [clientId, setClientId] = useState('');
  const [role, setRole] = useState<AdminRole>('tenant_admin');
  const [scope, setScope] = useState<TenantScope>(null);
  const form = useRef<HTMLFormElement>(null);
  const { errors, clear, refuse, reject } = useFieldErrors(form, result.busy);
  const missing = role !== 'owner' && scope !== null && scope.length === 0;
  const labelsIn = (said: Translate) => ({
    clientId: said('operators.clientId'),
    role: said('operators.role'),
    tenants: said('operators.scope'),
  });
  const labels = labelsIn(t);
  const create = () =>
    result.run(async () => {
      clear();
      reject(
        t,
        (said): Record<string, string> => (clientId.trim() ? {} : { clientId: said('fieldErrors.required') }),
        labelsIn,
      );
      try {
        const text = await onCreate(clientId.trim(), role, scope);
        setClientId('');
        return text;
      } catch (error) {
        return refuse(t, error, placeOf, labelsIn, {
          'admin.operator_exists': { field: 'clientId', text: 'fieldErrors.machineTaken' },
        });
      }
    });
  return (
    <PanelForm
      heading={t('operators.machineHeading')}
      level={2}
      intro={<p className="hint">{t('operators.machineHint')}</p>}
      formRef={form}
      busy={result.busy}
      submit={t('operators.createMachine')}
      submitDisabled={missing}
      onSubmit={() => {
        if (!missing) void create();
      }}
    >
      <Field
        id="operator-client-id"
        label={labels.clientId}
        invalid={Boolean(errors.clientId)}
        error={errors.clientId}
      >
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
      <RoleSelect id="operator-machine-role" value={role} error={errors.role} onChange={setRole} />
      <TenantScopeField
        role={role}
        scope={scope}
        tenants={tenants}
        error={errors.tenants}
        onChange={setScope}
      />
    </PanelForm>
  );
}
