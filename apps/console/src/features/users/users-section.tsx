import type { AdminUser } from '@keycard/contract/admin';
import { adminOperations } from '@keycard/contract/admin-paths';
import { type Locale, userTypes } from '@keycard/contract/user-state';
import { useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { languageNames, useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { CardList } from '../../ui/card-list.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Field } from '../../ui/field.tsx';
import { LanguageField } from '../../ui/language-field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { Result, useResult } from '../../ui/result.tsx';

type UserType = (typeof userTypes)[number];

/** Each user action and its operation. */
const actionOperations = {
  resendActivation: adminOperations.resendActivation,
  disable: adminOperations.disableUser,
  enable: adminOperations.enableUser,
  unlock: adminOperations.unlockUser,
  resetMfa: adminOperations.resetUserMfa,
  endSessions: adminOperations.endUserSessions,
} as const;
type Action = keyof typeof actionOperations;
/** Actions that take something away from the account: each asks first. */
type ConfirmedAction = 'disable' | 'resetMfa' | 'endSessions';
const isConfirmed = (action: Action): action is ConfirmedAction =>
  action === 'disable' || action === 'resetMfa' || action === 'endSessions';

export function UsersSection({ tenant }: SectionProps) {
  const { t, language } = useTranslation();
  const { can } = useSession();
  const writable = can('users.write');
  const result = useResult();
  const [query, setQuery] = useState('');
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [email, setEmail] = useState('');
  const [type, setType] = useState<UserType>('staff');
  const [locale, setLocale] = useState<Locale>('en');
  const code = tenant.code;

  const search = () =>
    result.run(async () => {
      const found = (
        await adminRequest(adminOperations.searchUsers, { params: { code }, query: { email: query.trim() } })
      ).users;
      setUsers(found);
      return found.length ? t('users.results', { count: found.length }) : t('users.empty');
    });
  const replace = (user: AdminUser | null, id: string) =>
    setUsers((current) => (current ?? []).flatMap((u) => (u.id !== id ? [u] : user ? [user] : [])));
  const act = (user: AdminUser, action: Action) =>
    result.run(async () => {
      const answer = await adminRequest(actionOperations[action], { params: { code, userId: user.id } });
      replace(answer.user, user.id);
      return answer.outcome === 'done'
        ? t(`users.done.${action}`, { email: user.email })
        : t('users.unchanged', { action: t(`users.actions.${action}`), email: user.email });
    });
  const remove = (user: AdminUser) =>
    result.run(async () => {
      await adminRequest(adminOperations.deleteUser, { params: { code, userId: user.id } });
      replace(null, user.id);
      return t('users.deleted', { email: user.email });
    });
  const invite = () =>
    result.run(async () => {
      const answer = await adminRequest(adminOperations.inviteUser, {
        params: { code },
        body: { email: email.trim(), type, locale },
      });
      setUsers((current) => [answer.user, ...(current ?? []).filter((u) => u.id !== answer.user.id)]);
      setEmail('');
      return answer.created
        ? t('users.invited', { email: answer.user.email })
        : t('users.inviteExisted', { email: answer.user.email });
    });

  const actionsOf = (user: AdminUser): Action[] => {
    const list: Action[] = [];
    if (user.status === 'pending') list.push('resendActivation');
    list.push(user.status === 'disabled' ? 'enable' : 'disable', 'unlock', 'resetMfa', 'endSessions');
    return list;
  };

  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">{t('users.heading')}</h2>
      <Result result={result} />
      <PanelForm
        heading={t('users.searchHeading')}
        busy={result.busy}
        inline
        submit={t('users.searchButton')}
        onSubmit={() => void search()}
      >
        <Field id="user-search" label={t('users.search')} className="grow">
          {(control) => (
            <input
              {...control}
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
          )}
        </Field>
      </PanelForm>
      <CardList
        items={users}
        itemKey={(user) => user.id}
        heading={(user) => user.email}
        headingClassName="wrap"
        facts={(user) => [
          {
            label: t('users.status'),
            value: (
              <span className={user.status === 'active' ? 'badge badge-on' : 'badge badge-off'}>
                {t(`users.statuses.${user.status}`)}
              </span>
            ),
          },
          { label: t('users.type'), value: t(`users.types.${user.type}`) },
          { label: t('users.locale'), value: languageNames[user.locale] },
          { label: t('users.created'), value: new Date(user.createdAt).toLocaleDateString(language) },
        ]}
      >
        {(user) =>
          writable && (
            <fieldset className="actions">
              <legend className="visually-hidden">{t('users.actionsFor', { email: user.email })}</legend>
              {actionsOf(user).map((action) =>
                isConfirmed(action) ? (
                  <ConfirmButton
                    key={action}
                    question={t(`users.questions.${action}`, { email: user.email })}
                    onConfirm={() => void act(user, action)}
                  >
                    {t(`users.actions.${action}`)}
                  </ConfirmButton>
                ) : (
                  <button
                    key={action}
                    type="button"
                    className="button-secondary"
                    disabled={result.busy}
                    onClick={() => void act(user, action)}
                  >
                    {t(`users.actions.${action}`)}
                  </button>
                ),
              )}
              <ConfirmButton
                question={t('users.questions.delete', { email: user.email })}
                onConfirm={() => void remove(user)}
              >
                {t('users.actions.delete')}
              </ConfirmButton>
            </fieldset>
          )
        }
      </CardList>
      {writable && (
        <PanelForm
          heading={t('users.inviteHeading')}
          busy={result.busy}
          submit={t('users.invite')}
          onSubmit={() => void invite()}
        >
          <Field id="invite-email" label={t('users.email')}>
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
          <Field id="invite-type" label={t('users.type')}>
            {(control) => (
              <select
                {...control}
                value={type}
                onChange={(event) => setType(userTypes.find((name) => name === event.target.value) ?? type)}
              >
                {userTypes.map((name) => (
                  <option key={name} value={name}>
                    {t(`users.types.${name}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <LanguageField id="invite-locale" label={t('users.locale')} value={locale} onChange={setLocale} />
        </PanelForm>
      )}
    </section>
  );
}
