import { useEffect, useId, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n.tsx';

/**
 * SPEC §2/§8: the partner sign-in's warning when the server could not be reached. A modal
 * alert dialog (native <dialog>: the page behind is inert, focus starts on Reload and stays
 * inside); Reload tries again, Close and Escape give up.
 */
export function NetworkErrorDialog({ onReload, onClose }: { onReload: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const reloadRef = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    reloadRef.current?.focus();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className="kc-partner-dialog"
      role="alertdialog"
      aria-labelledby={`${id}-heading`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={`${id}-heading`}>
        <span className="kc-partner-dialog-icon" aria-hidden="true">
          !
        </span>
        {t('partnerSso.networkDialog.heading')}
      </h2>
      <p id={`${id}-body`}>{t('partnerSso.networkDialog.body')}</p>
      <div className="kc-partner-dialog-actions">
        <button ref={reloadRef} type="button" className="kc-button" onClick={onReload}>
          {t('partnerSso.networkDialog.reload')}
        </button>
        <button type="button" className="kc-button kc-button-secondary" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </dialog>
  );
}
