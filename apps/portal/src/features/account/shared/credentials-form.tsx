import { type SecretQuestion, secretQuestions } from '@keycard/contract/lifecycle-api';
import { type FormEvent, useRef, useState } from 'react';
import { type PortalTextKey, useTranslation } from '../../../lib/i18n.tsx';
import { Notice, TextField } from '../../../ui/fields.tsx';
import type { FormOutcome } from './lifecycle-errors.ts';
import { NewPasswordFields, useNewPassword } from './new-password.tsx';
import { SelectField } from './select-field.tsx';
import './account.css';
import { PendingLabel } from '../../../ui/page.tsx';

/** Text keys of the six secret questions (SPEC §3 codes). */
const questionKeys: Record<SecretQuestion, PortalTextKey> = {
  'mother-maiden-name': 'lifecycle.secretQuestions.motherMaidenName',
  'father-middle-name': 'lifecycle.secretQuestions.fatherMiddleName',
  'town-where-born': 'lifecycle.secretQuestions.townWhereBorn',
  'first-overseas-trip': 'lifecycle.secretQuestions.firstOverseasTrip',
  'first-school': 'lifecycle.secretQuestions.firstSchool',
  'first-pet-name': 'lifecycle.secretQuestions.firstPetName',
};

export interface Credentials {
  password: string;
  secretQuestion: SecretQuestion;
  secretAnswer: string;
}

/**
 * SPEC §2 activation and registration form: password, confirmation, secret question and
 * answer. Validation is local (SPEC §5); the page's submit decides what a refusal means.
 */
export function CredentialsForm({
  email,
  submitLabel,
  submit,
}: {
  email: string;
  submitLabel: string;
  submit: (credentials: Credentials) => Promise<FormOutcome>;
}) {
  const { t } = useTranslation();
  const password = useNewPassword();
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const [errors, setErrors] = useState<{
    question?: PortalTextKey | undefined;
    answer?: PortalTextKey | undefined;
  }>({});
  const [notice, setNotice] = useState<PortalTextKey | null>(null);
  const [pending, setPending] = useState(false);
  const questionRef = useRef<HTMLSelectElement>(null);
  const answerRef = useRef<HTMLInputElement>(null);

  const questionProblem = (value: string) => (value ? undefined : ('common.required' as const));
  const answerProblem = (value: string) => (value.trim() ? undefined : ('common.required' as const));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const passwordField = password.validate();
    const found = { question: questionProblem(question), answer: answerProblem(answer) };
    setErrors(found);
    const first =
      passwordField?.current ??
      (found.question ? questionRef.current : found.answer ? answerRef.current : null);
    if (first) {
      first.focus();
      return;
    }
    setPending(true);
    const outcome = await submit({
      password: password.password,
      secretQuestion: question as SecretQuestion,
      secretAnswer: answer,
    });
    setPending(false);
    if (outcome && 'refuse' in outcome) password.refuse(outcome.refuse);
    if (outcome && 'notice' in outcome) setNotice(outcome.notice);
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      {notice ? <Notice tone="error">{t(notice)}</Notice> : null}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordFields state={password} />
      <SelectField
        label={t('lifecycle.passwordForm.secretQuestion')}
        name="secret-question"
        required
        value={question}
        selectRef={questionRef}
        placeholder={t('lifecycle.passwordForm.chooseQuestion')}
        options={secretQuestions.map((code) => ({ value: code, label: t(questionKeys[code]) }))}
        onChange={(event) => {
          setQuestion(event.target.value);
          if (errors.question) setErrors((e) => ({ ...e, question: questionProblem(event.target.value) }));
        }}
        onBlur={() =>
          setErrors((e) => (question || e.question ? { ...e, question: questionProblem(question) } : e))
        }
        error={errors.question ? t(errors.question) : undefined}
      />
      <TextField
        label={t('lifecycle.passwordForm.secretAnswer')}
        name="secret-answer"
        autoComplete="off"
        required
        maxLength={256}
        value={answer}
        inputRef={answerRef}
        onChange={(event) => {
          setAnswer(event.target.value);
          if (errors.answer) setErrors((e) => ({ ...e, answer: answerProblem(event.target.value) }));
        }}
        onBlur={() => setErrors((e) => (answer || e.answer ? { ...e, answer: answerProblem(answer) } : e))}
        error={errors.answer ? t(errors.answer) : undefined}
      />
      <button className="kc-button" type="submit" disabled={pending} aria-busy={pending}>
        <PendingLabel pending={pending}>{submitLabel}</PendingLabel>
      </button>
    </form>
  );
}

/** SPEC §2 reset-update form: the new password and its confirmation. */
export function NewPasswordForm({
  email,
  submitLabel,
  submit,
}: {
  email: string;
  submitLabel: string;
  submit: (password: string) => Promise<FormOutcome>;
}) {
  const { t } = useTranslation();
  const password = useNewPassword();
  const [notice, setNotice] = useState<PortalTextKey | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const first = password.validate();
    if (first) {
      first.current?.focus();
      return;
    }
    setPending(true);
    const outcome = await submit(password.password);
    setPending(false);
    if (outcome && 'refuse' in outcome) password.refuse(outcome.refuse);
    if (outcome && 'notice' in outcome) setNotice(outcome.notice);
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      {notice ? <Notice tone="error">{t(notice)}</Notice> : null}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordFields state={password} />
      <button className="kc-button" type="submit" disabled={pending} aria-busy={pending}>
        <PendingLabel pending={pending}>{submitLabel}</PendingLabel>
      </button>
    </form>
  );
}
