import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from '../../../lib/i18n.tsx';
import './account.css';

/**
 * SPEC §2 session dialog: a signed-in person must log out before using an activation or
 * reset link. It cannot be dismissed: Escape does nothing, the page behind is inert, and
 * focus stays on its one action, which logs out and comes back to this very address.
 */
export function SessionDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const page = document.getElementById('root');
    page?.setAttribute('inert', '');
    buttonRef.current?.focus();
    // The page heading takes focus when a screen opens; the dialog must keep it.
    const keep = (event: FocusEvent) => {
      if (
        !(event.target instanceof Node) ||
        !buttonRef.current?.closest('[role="alertdialog"]')?.contains(event.target)
      ) {
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('focusin', keep);
    const frame = requestAnimationFrame(() => buttonRef.current?.focus());
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('focusin', keep);
      page?.removeAttribute('inert');
    };
  }, []);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
    } else if (event.key === 'Tab') {
      // One focusable element: Tab and Shift+Tab stay on it.
      event.preventDefault();
      buttonRef.current?.focus();
    }
  }

  function logOut() {
    const query = new URLSearchParams({ redirectUri: window.location.href });
    navigate(`${paths.logout}?${query}`);
  }

  return createPortal(
    <div className="kc-dialog-backdrop">
      <div
        className="kc-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        onKeyDown={onKeyDown}
      >
        <h2 id={`${id}-title`}>{t('lifecycle.sessionDialog.heading')}</h2>
        <p id={`${id}-body`}>{t('lifecycle.sessionDialog.body')}</p>
        <button ref={buttonRef} type="button" className="kc-button" onClick={logOut}>
          {t('lifecycle.sessionDialog.confirm')}
        </button>
      </div>
    </div>,
    document.body,
  );
}
