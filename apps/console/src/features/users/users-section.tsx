import {
  type AdminUser,
  adminInviteResponse,
  adminUserActionResponse,
  adminUserListResponse,
} from '@keycard/contract/admin';
import { type Locale, userTypes } from '@keycard/contract/user-state';
import { useState } from 'react';
import { callApi } from '../../lib/api.ts';
import { languageNames, useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { LanguageField } from '../../ui/language-field.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import type { SectionProps } from '../tenants/tenant-page.tsx';

type Action = 'resendActivation' | 'disable' | 'enable' | 'unlock' | 'resetMfa' | 'endSessions';
const actionPaths: Record<Action, string> = {
  resendActivation: 'resend-activation',
  disable: 'disable',
  enable: 'enable',
  unlock: 'unlock',
  resetMfa: 'reset-mfa',
  endSessions: 'end-sessions',
};
/** Actions that take something away from the account: each asks first. */
const confirmed = new Set<Action>(['disable', 'resetMfa', 'endSessions']);

export function UsersSection({ tenant }: SectionProps) {
  const { t, language } = useTranslation();
  const { can } = useSession();
  const writable = can('users.write');
  const result = useResult();
  const [query, setQuery] = useState('');
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [email, setEmail] = useState('');
  const [type, setType] = useState<(typeof userTypes)[number]>('staff');
  const [locale, setLocale] = useState<Locale>('en');
  const base = `/tenants/${encodeURIComponent(tenant.code)}/users`;

  const search = () =>
    result.run(async () => {
      const found = (await callApi(base, adminUserListResponse, { query: { email: query.trim() } })).users;
      setUsers(found);
      return found.length ? t('users.results', { count: found.length }) : t('users.empty');
    });
  const replace = (user: AdminUser | null, id: string) =>
    setUsers((current) => (current ?? []).flatMap((u) => (u.id !== id ? [u] : user ? [user] : [])));
  const act = (user: AdminUser, action: Action) =>
    result.run(async () => {
      const answer = await callApi(`${base}/${user.id}/${actionPaths[action]}`, adminUserActionResponse, {
        method: 'POST',
      });
      replace(answer.user, user.id);
      return answer.outcome === 'done'
        ? t(`users.done.${action}`, { email: user.email })
        : t('users.unchanged', { action: t(`users.actions.${action}`), email: user.email });
    });
  const remove = (user: AdminUser) =>
    result.run(async () => {
      await callApi(`${base}/${user.id}`, adminUserActionResponse, { method: 'DELETE' });
      replace(null, user.id);
      return t('users.deleted', { email: user.email });
    });
  const invite = () =>
    result.run(async () => {
      const answer = await callApi(base, adminInviteResponse, {
        method: 'POST',
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
      <form
        className="panel"
        aria-labelledby="users-search-heading"
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <h3 id="users-search-heading">{t('users.searchHeading')}</h3>
        <div className="inline">
          <div className="field grow">
            <label htmlFor="user-search">{t('users.search')}</label>
            <input
              id="user-search"
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
          </div>
          <button type="submit" disabled={result.busy}>
            {t('users.searchButton')}
          </button>
        </div>
      </form>
      {users && users.length > 0 && (
        <ul className="cards">
          {users.map((user) => (
            <li key={user.id} className="card" aria-labelledby={`user-${user.id}`}>
              <h3 id={`user-${user.id}`} className="wrap">
                {user.email}
              </h3>
              <dl>
                <div>
                  <dt>{t('users.status')}</dt>
                  <dd>
                    <span className={user.status === 'active' ? 'badge badge-on' : 'badge badge-off'}>
                      {t(`users.statuses.${user.status}`)}
                    </span>
                  </dd>
                </div>
                <div>
                  <dt>{t('users.type')}</dt>
                  <dd>{t(`users.types.${user.type}`)}</dd>
                </div>
                <div>
                  <dt>{t('users.locale')}</dt>
                  <dd>{languageNames[user.locale]}</dd>
                </div>
                <div>
                  <dt>{t('users.created')}</dt>
                  <dd>{new Date(user.createdAt).toLocaleDateString(language)}</dd>
                </div>
              </dl>
              {writable && (
                <fieldset className="actions">
                  <legend className="visually-hidden">{t('users.actionsFor', { email: user.email })}</legend>
                  {actionsOf(user).map((action) =>
                    confirmed.has(action) ? (
                      <ConfirmButton
                        key={action}
                        question={t(`users.questions.${action as 'disable'}`, { email: user.email })}
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
              )}
            </li>
          ))}
        </ul>
      )}
      {writable && (
        <form
          className="panel"
          aria-labelledby="invite-heading"
          onSubmit={(event) => {
            event.preventDefault();
            void invite();
          }}
        >
          <h3 id="invite-heading">{t('users.inviteHeading')}</h3>
          <fieldset disabled={result.busy} className="plain">
            <div className="field">
              <label htmlFor="invite-email">{t('users.email')}</label>
              <input
                id="invite-email"
                type="email"
                autoComplete="off"
                required
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="invite-type">{t('users.type')}</label>
              <select
                id="invite-type"
                value={type}
                onChange={(event) => setType(event.target.value as typeof type)}
              >
                {userTypes.map((name) => (
                  <option key={name} value={name}>
                    {t(`users.types.${name}`)}
                  </option>
                ))}
              </select>
            </div>
            <LanguageField id="invite-locale" label={t('users.locale')} value={locale} onChange={setLocale} />
            <button type="submit">{t('users.invite')}</button>
          </fieldset>
        </form>
      )}
    </section>
  );
}
