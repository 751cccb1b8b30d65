import type { AdminUser } from '@keycard/contract/admin';
import { adminOperations } from '@keycard/contract/admin-paths';
import { type Locale, userTypes } from '@keycard/contract/user-state';
import { useEffect, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { languageNames, type Translate, useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { CardList } from '../../ui/card-list.tsx';
import { Field } from '../../ui/field.tsx';
import { type FieldPlace, useFieldErrors } from '../../ui/field-errors.ts';
import { LanguageField } from '../../ui/language-field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { pageSize, useUserList } from './use-user-list.ts';
import { UserActions } from './user-actions.tsx';
import { UserHelp } from './user-help.tsx';

type UserType = (typeof userTypes)[number];

/** Where an invitation's refusal is: each body field is the form's field of that name. */
const invitePlace = (path: string[]): FieldPlace | null => {
  const [first] = path;
  return first === 'email' || first === 'type' ? { field: first } : null;
};
/** The search sends its text as `email`: any refusal of the query is the search field's. */
const searchPlace = (): FieldPlace => ({ field: 'query' });

/** Active accounts green, disabled red, pending neutral: waiting is not a fault. */
const badgeOf = (status: AdminUser['status']) =>
  status === 'active' ? 'badge badge-on' : status === 'disabled' ? 'badge badge-off' : 'badge';

export function UsersSection({ tenant }: SectionProps) {
  const { t, language } = useTranslation();
  const { can } = useSession();
  const writable = can('users.write');
  const result = useResult();
  const { run } = result;
  const list = useUserList(tenant.code);
  const { load, reload } = list;
  const [query, setQuery] = useState('');
  const [email, setEmail] = useState('');
  const [type, setType] = useState<UserType>('staff');
  const [locale, setLocale] = useState<Locale>('en');
  const code = tenant.code;
  const searchForm = useRef<HTMLFormElement>(null);
  const inviteForm = useRef<HTMLFormElement>(null);
  const searchErrors = useFieldErrors(searchForm, result.busy);
  const inviteErrors = useFieldErrors(inviteForm, result.busy);
  const inviteLabelsIn = (said: Translate) => ({
    email: said('users.email'),
    type: said('users.type'),
    locale: said('users.locale'),
  });
  const searchLabelsIn = (said: Translate) => ({ query: said('users.search') });
  const inviteLabels = inviteLabelsIn(t);
  const searchLabels = searchLabelsIn(t);

  // The list is there when the tab opens: the first page of every account.
  useEffect(() => {
    void run(async () => {
      await reload();
      return undefined;
    });
  }, [run, reload]);

  // "23 accounts" when one page holds them all, else "Accounts 21–23 of 23".
  const shown = (from: number, count: number, total: number) => (said: Translate) =>
    total === 0
      ? said('users.empty')
      : from === 0 && count === total
        ? said('users.count', { count: total })
        : said('users.shown', { from: from + 1, to: from + count, total });
  const search = () =>
    run(async () => {
      searchErrors.clear();
      inviteErrors.clear();
      try {
        const page = await load(query, 0);
        return shown(0, page.users.length, page.total);
      } catch (error) {
        return searchErrors.refuse(t, error, searchPlace, searchLabelsIn);
      }
    });
  const turn = (offset: number) =>
    run(async () => {
      const page = await load(list.search, offset);
      return shown(offset, page.users.length, page.total);
    });
  const invite = () =>
    run(async () => {
      searchErrors.clear();
      inviteErrors.clear();
      inviteErrors.reject(
        t,
        (said): Record<string, string> => (email.trim() ? {} : { email: said('fieldErrors.required') }),
        inviteLabelsIn,
      );
      const answer = await adminRequest(adminOperations.inviteUser, {
        params: { code },
        body: { email: email.trim(), type, locale },
      }).catch((error: unknown) => inviteErrors.refuse(t, error, invitePlace, inviteLabelsIn));
      list.add(answer.user);
      setEmail('');
      const invited = answer.user.email;
      return (said) =>
        answer.created
          ? said('users.invited', { email: invited })
          : said('users.inviteExisted', { email: invited });
    });

  const users = list.users;
  const dateTime = (at: number) =>
    new Date(at).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">{t('users.heading')}</h2>
      <Result result={result} />
      <PanelForm
        heading={t('users.searchHeading')}
        formRef={searchForm}
        busy={result.busy}
        inline
        submit={t('users.searchButton')}
        onSubmit={() => void search()}
      >
        <Field
          id="user-search"
          label={searchLabels.query}
          className="grow"
          invalid={Boolean(searchErrors.errors.query)}
          error={searchErrors.errors.query}
        >
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
      {users !== null && users.length > 0 && <p>{shown(list.offset, users.length, list.total)(t)}</p>}
      <CardList
        items={users}
        itemKey={(user) => user.id}
        label={users?.length ? shown(list.offset, users.length, list.total)(t) : undefined}
        loading={t('users.loading')}
        empty={t('users.empty')}
        heading={(user) => user.email}
        headingClassName="wrap"
        facts={(user) => [
          {
            label: t('users.status'),
            value: <span className={badgeOf(user.status)}>{t(`users.statuses.${user.status}`)}</span>,
          },
          user.status !== 'pending' && {
            label: t('users.signIn'),
            value:
              user.lockedUntil === null
                ? t('users.notLocked')
                : t('users.lockedUntil', { time: dateTime(user.lockedUntil) }),
          },
          user.status !== 'pending' && {
            label: t('users.mfa'),
            value: user.mfaEnrolled ? t('users.mfaSet') : t('users.mfaNone'),
          },
          { label: t('users.type'), value: t(`users.types.${user.type}`) },
          { label: t('users.locale'), value: languageNames[user.locale] },
          { label: t('users.created'), value: new Date(user.createdAt).toLocaleDateString(language) },
        ]}
      >
        {(user) => (
          <>
            {writable && (
              <UserActions
                code={code}
                user={user}
                result={result}
                onChanged={list.replace}
                onDeleted={list.drop}
              />
            )}
            {user.status !== 'pending' && (
              <UserHelp code={code} user={user} writable={writable} onChanged={list.replace} />
            )}
          </>
        )}
      </CardList>
      {users !== null && list.total > pageSize && (
        <nav aria-label={t('users.pages')} className="actions">
          <button
            type="button"
            className="button-secondary"
            disabled={result.busy || list.offset === 0}
            onClick={() => void turn(Math.max(0, list.offset - pageSize))}
          >
            {t('users.previous')}
          </button>
          <button
            type="button"
            className="button-secondary"
            disabled={result.busy || list.offset + users.length >= list.total}
            onClick={() => void turn(list.offset + pageSize)}
          >
            {t('users.next')}
          </button>
        </nav>
      )}
      {writable && (
        <PanelForm
          heading={t('users.inviteHeading')}
          formRef={inviteForm}
          busy={result.busy}
          submit={t('users.invite')}
          onSubmit={() => void invite()}
        >
          <Field
            id="invite-email"
            label={inviteLabels.email}
            invalid={Boolean(inviteErrors.errors.email)}
            error={inviteErrors.errors.email}
          >
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
          <Field
            id="invite-type"
            label={inviteLabels.type}
            invalid={Boolean(inviteErrors.errors.type)}
            error={inviteErrors.errors.type}
          >
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
