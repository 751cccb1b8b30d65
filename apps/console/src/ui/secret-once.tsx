import { useId, useState } from 'react';
import { useTranslation } from '../lib/i18n.tsx';

/**
 * A secret shown once, as the API answered it: held in this component's state only (never
 * stored), so it is gone after "I have stored it", a reload or leaving the page.
 */
export function SecretOnce({
  owner,
  secret,
  onDone,
  level = 3,
}: {
  owner: string;
  secret: string;
  onDone: () => void;
  /** Its heading's level: 2 on a page of its own, 3 inside a section. */
  level?: 2 | 3;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState('');
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="panel secret" aria-labelledby={`${id}-heading`}>
      <Heading id={`${id}-heading`}>{t('clients.secretHeading', { clientId: owner })}</Heading>
      <p className="warning">
        <strong>{t('clients.secretWarning')}</strong>
      </p>
      <div className="field">
        <label htmlFor={`${id}-value`}>{t('clients.secretLabel')}</label>
        <div className="inline">
          <input
            id={`${id}-value`}
            readOnly
            value={secret}
            className="mono"
            onFocus={(event) => event.target.select()}
          />
          <button
            type="button"
            className="button-secondary"
            onClick={() =>
              void navigator.clipboard.writeText(secret).then(
                () => setCopied(t('common.copied')),
                () => setCopied(''),
              )
            }
          >
            {t('common.copy')}
          </button>
        </div>
      </div>
      <p role="status">{copied}</p>
      <button type="button" onClick={onDone}>
        {t('clients.secretDone')}
      </button>
    </section>
  );
}
