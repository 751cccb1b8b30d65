import type { AdminPasskey, AdminUser } from '@keycard/contract/admin';
import { adminOperations } from '@keycard/contract/admin-paths';
import type { SecretQuestion } from '@keycard/contract/lifecycle-api';
import { useEffect, useId, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { ApiError } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Field } from '../../ui/field.tsx';
import { useFieldErrors } from '../../ui/field-errors.ts';
import { PanelForm } from '../../ui/panel-form.tsx';
import { errorText, Result, useResult } from '../../ui/result.tsx';

/**
 * What the help desk needs while a person is on the phone (issues 18 and 19): the account's
 * passkeys, one removed when a phone is lost, and the secret question to check who is calling.
 * Loaded only when opened.
 */
export function UserHelp({
  code,
  user,
  writable,
  onChanged,
}: {
  code: string;
  user: AdminUser;
  writable: boolean;
  onChanged: (user: AdminUser) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <details className="user-help" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('users.help')}</summary>
      {open && (
        <>
          <UserPasskeys code={code} user={user} writable={writable} onChanged={onChanged} />
          {writable && <SecretAnswerCheck code={code} user={user} />}
        </>
      )}
    </details>
  );
}

function UserPasskeys({
  code,
  user,
  writable,
  onChanged,
}: {
  code: string;
  user: AdminUser;
  writable: boolean;
  onChanged: (user: AdminUser) => void;
}) {
  const { t, language } = useTranslation();
  const result = useResult();
  const { run } = result;
  const headingId = useId();
  const [passkeys, setPasskeys] = useState<AdminPasskey[] | null>(null);
  const userId = user.id;
  useEffect(() => {
    void run(async () => {
      setPasskeys(
        (await adminRequest(adminOperations.listUserPasskeys, { params: { code, userId } })).passkeys,
      );
      return undefined;
    });
  }, [run, code, userId]);
  const date = (at: number) =>
    new Date(at).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
  const remove = (passkey: AdminPasskey) =>
    run(async () => {
      const answer = await adminRequest(adminOperations.removeUserPasskey, {
        params: { code, userId, passkeyId: passkey.id },
      });
      setPasskeys(answer.passkeys);
      // Its last passkey gone, the account may have no second factor left: its actions follow.
      onChanged((await adminRequest(adminOperations.getUser, { params: { code, userId } })).user);
      const { name } = passkey;
      const email = user.email;
      return (said) =>
        answer.outcome === 'done'
          ? said('users.passkeys.removed', { name, email })
          : said('users.passkeys.gone', { name });
    });
  return (
    <section aria-labelledby={headingId}>
      <h4 id={headingId}>{t('users.passkeys.heading')}</h4>
      <Result result={result} />
      {passkeys === null ? (
        <p>{t('users.passkeys.loading')}</p>
      ) : passkeys.length === 0 ? (
        <p>{t('users.passkeys.empty')}</p>
      ) : (
        <ul className="cards">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="card">
              <p className="wrap">
                <strong>{passkey.name}</strong>
              </p>
              <dl>
                <div>
                  <dt>{t('users.passkeys.kind')}</dt>
                  <dd>{passkey.synced ? t('users.passkeys.synced') : t('users.passkeys.deviceBound')}</dd>
                </div>
                <div>
                  <dt>{t('users.passkeys.created')}</dt>
                  <dd>{date(passkey.createdAt)}</dd>
                </div>
                <div>
                  <dt>{t('users.passkeys.lastUsed')}</dt>
                  <dd>
                    {passkey.lastUsedAt === null ? t('users.passkeys.never') : date(passkey.lastUsedAt)}
                  </dd>
                </div>
                <div>
                  <dt>{t('users.passkeys.domain')}</dt>
                  <dd className="wrap">{passkey.rpId}</dd>
                </div>
              </dl>
              {writable && (
                <div className="actions">
                  <ConfirmButton
                    label={t('users.passkeys.removeFor', { name: passkey.name })}
                    question={t('users.passkeys.removeQuestion', { name: passkey.name, email: user.email })}
                    disabled={result.busy}
                    onConfirm={() => void remove(passkey)}
                  >
                    {t('common.remove')}
                  </ConfirmButton>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The caller's question and a check of the answer they speak. The stored answer never reaches
 * the console; a match is said in the status region, a mismatch and the limit in the alert.
 */
function SecretAnswerCheck({ code, user }: { code: string; user: AdminUser }) {
  const { t } = useTranslation();
  const result = useResult();
  const { run } = result;
  const headingId = useId();
  const [question, setQuestion] = useState<SecretQuestion | null | undefined>(undefined);
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const { errors, clear, refuse } = useFieldErrors(form, busy);
  const userId = user.id;
  useEffect(() => {
    void run(async () => {
      setQuestion(
        (await adminRequest(adminOperations.getSecretQuestion, { params: { code, userId } })).question,
      );
      return undefined;
    });
  }, [run, code, userId]);

  const check = async () => {
    setBusy(true);
    clear();
    try {
      const checked = await adminRequest(adminOperations.checkSecretAnswer, {
        params: { code, userId },
        body: { answer },
      });
      const email = user.email;
      if (checked.result === 'match') result.announce((said) => said('users.secret.match', { email }));
      else if (checked.result === 'mismatch') result.fail((said) => said('users.secret.mismatch'));
      else result.fail((said) => said('users.secret.none'));
      setAnswer('');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'admin.rate_limited') {
        const seconds = Number(error.fields?.retryAfterSeconds ?? 60);
        const count = Math.max(1, Math.ceil(seconds / 60));
        result.fail((said) => said('users.secret.limited', { count }));
      } else {
        try {
          refuse(
            t,
            error,
            () => ({ field: 'answer' }),
            (said) => ({ answer: said('users.secret.answer') }),
          );
        } catch (refused) {
          result.fail((said, language) => errorText(said, refused, language));
        }
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={headingId}>
      <h4 id={headingId}>{t('users.secret.heading')}</h4>
      {question === undefined ? (
        <>
          <Result result={result} />
          <p>{t('users.secret.loading')}</p>
        </>
      ) : question === null ? (
        <p>{t('users.secret.none')}</p>
      ) : (
        <PanelForm
          labelledBy={headingId}
          formRef={form}
          className=""
          intro={
            <>
              <p className="hint">{t('users.secret.intro')}</p>
              <p className="wrap">
                <strong>{t('users.secret.question')}</strong>
                <br />
                {t(`users.secret.questions.${question}`)}
              </p>
              <Result result={result} />
            </>
          }
          busy={busy}
          submit={t('users.secret.check')}
          submitDisabled={answer.trim() === ''}
          onSubmit={() => void check()}
        >
          <Field label={t('users.secret.answer')} invalid={Boolean(errors.answer)} error={errors.answer}>
            {(control) => (
              <input
                {...control}
                autoComplete="off"
                spellCheck={false}
                value={answer}
                onChange={(event) => setAnswer(event.target.value)}
              />
            )}
          </Field>
        </PanelForm>
      )}
    </section>
  );
}
