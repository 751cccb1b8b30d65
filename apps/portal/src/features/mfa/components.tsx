import type { MfaStatusResponse } from '@keycard/contract/mfa';
import type { Locale } from '@keycard/contract/user-state';
import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { splitAtWait, waitValues } from '../../lib/duration.ts';
import { type Translate, useTranslation } from '../../lib/i18n.tsx';
import { Checkbox, Notice } from '../../ui/fields.tsx';
import { codeDigits } from './code-format.ts';
import type { MfaProblem } from './mfa-errors.ts';
import { useRecoveryCodesExport } from './use-recovery-codes-export.ts';

/**
 * "Trust this device", the same in every flow (verify, set-up, recovery, the mobile app):
 * unticked until the person ticks it, and always just before the row holding the submit
 * button (`.kc-mfa-actions`).
 */
export function TrustDevice({
  days,
  checked,
  onChange,
}: {
  days: number;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Checkbox
      label={t('mfa.common.trustDevice', { count: days })}
      checked={checked}
      onChange={(event) => onChange(event.target.checked)}
      data-kc="trust-device"
    />
  );
}

/**
 * "Use a recovery code instead", the same on every screen: a link-styled button, first in the
 * screen's links (`.kc-links`) under the form.
 */
export function UseRecoveryCode({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="kc-back" data-kc="use-recovery" onClick={onClick}>
      {t('mfa.verify.useRecovery')}
    </button>
  );
}

export function StepIndicator({ step, total }: { step: number; total: number }) {
  const { t } = useTranslation();
  return <p className="kc-mfa-step">{t('mfa.common.stepOf', { step, total })}</p>;
}

/** The 6-digit code input: numeric keypad, one-time-code autofill, hint and error tied to it. */
export function CodeField({
  label,
  hint,
  value,
  onChange,
  error,
  inputRef,
  recovery = false,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
  recovery?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="kc-field">
      <label htmlFor={id}>{label}</label>
      <p className="kc-mfa-hint" id={hintId}>
        {hint}
      </p>
      <input
        id={id}
        ref={inputRef}
        name={recovery ? 'recoveryCode' : 'code'}
        className={recovery ? 'kc-mfa-recovery-input' : 'kc-mfa-code-input'}
        type="text"
        inputMode={recovery ? 'text' : 'numeric'}
        autoComplete={recovery ? 'off' : 'one-time-code'}
        autoCapitalize="off"
        spellCheck={false}
        // No 6-character limit on the code: the browser would cut a pasted "123 456" to "123 45"
        // before the spaces are taken out. codeDigits keeps the first six digits instead.
        maxLength={recovery ? 32 : undefined}
        required
        value={value}
        onChange={(event) => {
          const code = recovery ? event.target.value : codeDigits(event.target.value);
          // A refused character (a letter, a seventh digit) leaves the state as it was, and
          // Preact, unlike React, draws nothing again then: the field is put back by hand.
          if (event.target.value !== code) event.target.value = code;
          onChange(code);
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
      />
      {error ? (
        <p className="kc-field-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The proof a person gives: a 6-digit code, or one of their recovery codes instead. */
export function ProofField({
  mode,
  value,
  onChange,
  error,
  inputRef,
}: {
  mode: 'code' | 'recovery';
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  inputRef: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  const recovery = mode === 'recovery';
  return (
    <CodeField
      recovery={recovery}
      label={t(recovery ? 'mfa.verify.recoveryLabel' : 'mfa.common.codeLabel')}
      hint={t(recovery ? 'mfa.verify.recoveryHint' : 'mfa.common.codeHint')}
      value={value}
      onChange={onChange}
      error={error}
      inputRef={inputRef}
    />
  );
}

/** A labelled input with a hint; hint and error are tied to it (aria-describedby), the error announced. */
export function HintedField({
  label,
  hint,
  error,
  inputRef,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="kc-field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="kc-mfa-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        ref={inputRef}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      {error ? (
        <p className="kc-field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** SPEC §8 MFA messages, with the provider's code in brackets when there is one. */
export function problemText(t: Translate, problem: MfaProblem, language: Locale) {
  const values =
    problem.retryAfterSeconds === undefined
      ? problem.values
      : { ...problem.values, ...waitValues(problem.retryAfterSeconds, language) };
  const message = t(problem.key, values);
  return problem.providerCode ? `${message} (${problem.providerCode})` : message;
}

/**
 * A problem as an alert. A wait in it ("try again in 14 minutes") may tick: the phrase sits in
 * an element screen readers do not re-announce, the sentence is announced once.
 */
export function ProblemNotice({ problem }: { problem: MfaProblem | null }) {
  const { t, i18n } = useTranslation();
  if (!problem) return null;
  const text = problemText(t, problem, i18n.language);
  const parts =
    problem.retryAfterSeconds === undefined
      ? null
      : splitAtWait(text, problem.retryAfterSeconds, i18n.language);
  return (
    <Notice tone="error">
      {parts ? (
        <>
          {parts.before}
          <span aria-live="off" data-wait={problem.retryAfterSeconds}>
            {parts.words}
          </span>
          {parts.after}
        </>
      ) : (
        text
      )}
    </Notice>
  );
}

/** Copies a text to the clipboard and says so (or says to copy by hand) in a live region. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <div className="kc-mfa-copy">
      <button
        type="button"
        className="kc-button kc-button-secondary"
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setStatus('copied'),
            () => setStatus('failed'),
          );
        }}
      >
        {label}
      </button>
      <p className="kc-mfa-live" role="status" aria-live="polite">
        {status === 'copied' ? t('mfa.common.copied') : status === 'failed' ? t('mfa.common.copyFailed') : ''}
      </p>
    </div>
  );
}

/** SPEC §2 benefits panel: minutes to set up, only every N days on a trusted device, landline works. */
/** The factors the tenant offers that can work now: SMS and voice only with a way to deliver them. */
export function offeredMethods(status: MfaStatusResponse): MfaStatusResponse['methods'] {
  return status.methods.filter((method) => status.phoneAvailable || (method !== 'sms' && method !== 'voice'));
}

export function Benefits({ days, methods }: { days: number; methods: readonly string[] }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className="kc-mfa-benefits" aria-labelledby={id}>
      <h2 id={id}>{t('mfa.benefits.heading')}</h2>
      <ul>
        <li>{t('mfa.benefits.minutes')}</li>
        <li>{t('mfa.benefits.trusted', { count: days })}</li>
        {/* A landline works only by voice call: promised only where the tenant offers voice. */}
        {methods.includes('voice') ? <li>{t('mfa.benefits.landline')}</li> : null}
      </ul>
    </section>
  );
}

/**
 * A modal confirmation (native <dialog>: focus stays inside, Escape cancels, focus returns to
 * the control that opened it).
 */
export function ConfirmDialog({
  open,
  heading,
  body,
  confirm,
  cancel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  heading: string;
  body: ReactNode;
  confirm: string;
  cancel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  // A layout effect: the dialog opens and closes with the render that asks for it. (Preact runs
  // plain effects after the next frame, which left a closed dialog on screen, and its
  // buttons in the way, until then.)
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="kc-mfa-dialog"
      aria-labelledby={`${id}-heading`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-heading`}>{heading}</h2>
      <div id={`${id}-body`}>{body}</div>
      <div className="kc-mfa-actions">
        <button type="button" className="kc-button" onClick={onConfirm}>
          {confirm}
        </button>
        <button type="button" className="kc-button kc-button-secondary" onClick={onCancel}>
          {cancel}
        </button>
      </div>
    </dialog>
  );
}

/** The ten recovery codes, shown once, with copy and an "I have saved them" confirmation. */
export function RecoveryCodes({
  codes,
  intro,
  onContinue,
}: {
  codes: string[];
  intro: string;
  onContinue: () => void;
}) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  const [missing, setMissing] = useState(false);
  const saving = useRecoveryCodesExport(codes);
  const listId = useId();
  const checkId = useId();
  return (
    <div className="kc-mfa-recovery">
      <h2 id={listId}>{t('mfa.recovery.heading')}</h2>
      <p>{intro}</p>
      <div className="kc-mfa-printable">
        <p className="kc-mfa-print-only">{saving.intro}</p>
        <ul className="kc-mfa-codes" aria-label={t('mfa.recovery.listLabel')}>
          {codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
      </div>
      <div className="kc-mfa-save">
        <button type="button" className="kc-button kc-button-secondary" onClick={saving.download}>
          {t('mfa.recovery.download')}
        </button>
        <button type="button" className="kc-button kc-button-secondary" onClick={saving.print}>
          {t('mfa.recovery.print')}
        </button>
      </div>
      <CopyButton text={codes.join('\n')} label={t('mfa.recovery.copy')} />
      <div className="kc-checkbox">
        <input
          id={checkId}
          type="checkbox"
          checked={saved}
          aria-invalid={missing ? true : undefined}
          aria-describedby={missing ? `${checkId}-error` : undefined}
          onChange={(event) => {
            setSaved(event.target.checked);
            if (event.target.checked) setMissing(false);
          }}
        />
        <label htmlFor={checkId}>{t('mfa.recovery.saved')}</label>
      </div>
      {missing ? (
        <p className="kc-field-error" id={`${checkId}-error`} role="alert">
          {t('mfa.recovery.savedRequired')}
        </p>
      ) : null}
      <button
        type="button"
        className="kc-button"
        onClick={() => {
          if (!saved) {
            setMissing(true);
            return;
          }
          onContinue();
        }}
      >
        {t('mfa.common.continue')}
      </button>
    </div>
  );
}

/** Resend by SMS or call back, with the countdown the server enforces. */
export function ResendControls({
  seconds,
  busy,
  onResend,
  allowSms = true,
}: {
  seconds: number;
  busy: boolean;
  onResend: (channel: 'sms' | 'voice') => void;
  allowSms?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const waiting = seconds > 0;
  return (
    <div className="kc-mfa-resend">
      <p>{t('mfa.resend.question')}</p>
      <div className="kc-mfa-actions">
        {allowSms ? (
          <button
            type="button"
            className="kc-button kc-button-secondary"
            disabled={waiting || busy}
            onClick={() => onResend('sms')}
          >
            {t('mfa.resend.sms')}
          </button>
        ) : null}
        <button
          type="button"
          className="kc-button kc-button-secondary"
          disabled={waiting || busy}
          onClick={() => onResend('voice')}
        >
          {t('mfa.resend.call')}
        </button>
      </div>
      {waiting ? (
        <p className="kc-mfa-countdown" data-countdown={seconds}>
          {t('mfa.resend.wait', waitValues(seconds, i18n.language))}
        </p>
      ) : null}
    </div>
  );
}
