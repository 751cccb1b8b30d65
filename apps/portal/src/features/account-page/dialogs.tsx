import { type FormEvent, type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';
import { PasswordField, TextField } from '../../ui/fields.tsx';
import { PendingLabel } from '../../ui/page.tsx';
import type { Reproof } from './use-reproof.ts';
import './account-page.css';

/**
 * A modal dialog (the browser's own <dialog>: focus stays inside, Escape cancels). It opens and
 * closes with the render that asks for it (a layout effect: Preact runs plain effects a frame
 * later), and gives focus back to what had it when it closes without acting.
 */
function Modal({
  open,
  labelledBy,
  describedBy,
  onCancel,
  children,
  role,
}: {
  open: boolean;
  labelledBy: string;
  describedBy?: string;
  onCancel: () => void;
  children: ReactNode;
  role?: 'alertdialog';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
    }
    if (!open && dialog.open) {
      dialog.close();
      // Back to the button that opened it; an action's outcome may move focus on from there.
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="kc-account-dialog"
      role={role}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}

/** What a destructive action asks before it runs. */
export interface ConfirmRequest {
  heading: string;
  body: string;
  confirm: string;
  run: () => unknown;
}

/** A confirmation state for a section: `ask` opens the dialog, `dialog` draws it. */
export function useConfirm() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  return {
    ask: setRequest,
    dialog: <ConfirmDialog request={request} onClose={() => setRequest(null)} />,
  };
}

function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    // The safe choice first: Enter on a dialog opened by accident destroys nothing.
    if (request) cancelRef.current?.focus();
  }, [request]);
  return (
    <Modal
      open={request !== null}
      role="alertdialog"
      labelledBy={`${id}-heading`}
      describedBy={`${id}-body`}
      onCancel={onClose}
    >
      <h2 id={`${id}-heading`}>{request?.heading}</h2>
      <p id={`${id}-body`}>{request?.body}</p>
      <div className="kc-account-dialog-actions">
        <button
          type="button"
          className="kc-button kc-button-danger"
          onClick={() => {
            const run = request?.run;
            onClose();
            run?.();
          }}
        >
          {request?.confirm}
        </button>
        <button ref={cancelRef} type="button" className="kc-button kc-button-secondary" onClick={onClose}>
          {t('account.page.cancel')}
        </button>
      </div>
    </Modal>
  );
}

/** "Confirm it's you": a passkey, or the password and then the second step. */
export function ReproofDialog({ reproof }: { reproof: Reproof }) {
  const { t } = useTranslation();
  const id = useId();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const fieldRef = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new step (or error) starts in its field
  useLayoutEffect(() => {
    if (!reproof.open) {
      setPassword('');
      setCode('');
      return;
    }
    fieldRef.current?.focus();
  }, [reproof.open, reproof.step, reproof.factor, reproof.fieldError]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (reproof.pending) return;
    if (reproof.step === 'password') {
      if (password) void reproof.withPassword(password);
      else fieldRef.current?.focus();
    } else if (code.trim()) {
      void reproof.withCode(code.trim());
    } else fieldRef.current?.focus();
  }

  const factorIntro =
    reproof.factor === 'totp'
      ? t('account.reproof.totpIntro')
      : reproof.factor === 'recovery'
        ? t('account.reproof.recoveryIntro')
        : reproof.codeSentTo
          ? t('account.reproof.phoneIntro', { phone: reproof.codeSentTo })
          : t('account.reproof.factorIntro');

  return (
    <Modal
      open={reproof.open}
      labelledBy={`${id}-heading`}
      describedBy={`${id}-intro`}
      onCancel={reproof.cancel}
    >
      <h2 id={`${id}-heading`}>{t('account.reproof.heading')}</h2>
      <p id={`${id}-intro`}>{reproof.step === 'password' ? t('account.reproof.intro') : factorIntro}</p>
      {reproof.notice ? (
        <p className="kc-account-dialog-error" role="alert">
          {reproof.notice}
        </p>
      ) : null}
      {reproof.passkeyUsable ? (
        <>
          <button
            type="button"
            className="kc-button"
            disabled={reproof.pending}
            onClick={() => void reproof.withPasskey()}
          >
            {t('account.reproof.passkey')}
          </button>
          <p className="kc-account-or">{t('account.reproof.or')}</p>
        </>
      ) : null}
      <form noValidate onSubmit={submit}>
        {reproof.step === 'password' ? (
          <PasswordField
            label={t('account.reproof.password')}
            name="password"
            autoComplete="current-password"
            required
            maxLength={2048}
            value={password}
            inputRef={fieldRef}
            onChange={(event) => setPassword(event.target.value)}
            error={reproof.fieldError}
          />
        ) : reproof.factor === 'phone' && !reproof.codeSentTo ? (
          <button
            type="button"
            className="kc-button kc-button-secondary"
            disabled={reproof.pending}
            onClick={() => void reproof.sendCode()}
          >
            {t('account.reproof.sendCode')}
          </button>
        ) : (
          <TextField
            key={reproof.factor}
            label={
              reproof.factor === 'recovery' ? t('account.reproof.recoveryCode') : t('account.reproof.code')
            }
            name="code"
            autoComplete="one-time-code"
            inputMode={reproof.factor === 'recovery' ? 'text' : 'numeric'}
            required
            maxLength={16}
            value={code}
            inputRef={fieldRef}
            onChange={(event) => setCode(event.target.value)}
            error={reproof.fieldError}
          />
        )}
        {reproof.step === 'factor' && reproof.factor !== 'recovery' ? (
          <button type="button" className="kc-account-link-button" onClick={reproof.useRecoveryCode}>
            {t('account.reproof.useRecoveryCode')}
          </button>
        ) : null}
        <div className="kc-account-dialog-actions">
          <button type="submit" className="kc-button" aria-busy={reproof.pending} disabled={reproof.pending}>
            <PendingLabel pending={reproof.pending}>{t('account.reproof.continue')}</PendingLabel>
          </button>
          <button type="button" className="kc-button kc-button-secondary" onClick={reproof.cancel}>
            {t('account.page.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** New recovery codes, shown once. */
export function RecoveryCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const doneRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (codes) doneRef.current?.focus();
  }, [codes]);
  return (
    <Modal open={codes !== null} labelledBy={`${id}-heading`} describedBy={`${id}-intro`} onCancel={onClose}>
      <h2 id={`${id}-heading`}>{t('account.recovery.heading')}</h2>
      <p id={`${id}-intro`}>{t('account.recovery.intro')}</p>
      <ul className="kc-account-codes" aria-label={t('account.recovery.listLabel')}>
        {(codes ?? []).map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button ref={doneRef} type="button" className="kc-button" onClick={onClose}>
        {t('account.recovery.done')}
      </button>
    </Modal>
  );
}
