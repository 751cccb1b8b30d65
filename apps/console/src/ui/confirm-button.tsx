import { type ReactNode, useId, useRef } from 'react';
import { useTranslation } from '../lib/i18n.tsx';

/**
 * A button for a destructive action: it opens a modal dialog that says what will happen
 * (naming the account or object) and acts only on Confirm. The native <dialog> keeps focus
 * inside and closes on Escape.
 */
export function ConfirmButton({
  children,
  question,
  confirmLabel,
  onConfirm,
  disabled,
  danger = true,
  label,
}: {
  children: ReactNode;
  question: string;
  confirmLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
  danger?: boolean;
  /** An accessible name when the visible one is short (e.g. "Delete" in a list). */
  label?: string;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const questionId = useId();
  return (
    <>
      <button
        type="button"
        className={danger ? 'button-danger' : 'button-secondary'}
        disabled={disabled}
        aria-label={label}
        onClick={() => dialog.current?.showModal()}
      >
        {children}
      </button>
      <dialog ref={dialog} aria-labelledby={questionId} className="confirm">
        <p id={questionId}>{question}</p>
        <div className="actions">
          <button type="button" className="button-secondary" onClick={() => dialog.current?.close()}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className={danger ? 'button-danger' : ''}
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            {confirmLabel ?? children}
          </button>
        </div>
      </dialog>
    </>
  );
}
