import type { AccountFactor } from '@keycard/contract/account';
import type { PasskeySummary } from '@keycard/contract/passkeys';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { type Translate, useTranslation } from '../../lib/i18n.tsx';
import { PasswordField, TextField } from '../../ui/fields.tsx';
import { PendingLabel } from '../../ui/page.tsx';
import { NewPasswordFields, useNewPassword } from '../account/shared/new-password.tsx';
import { formatDate } from './account-format.ts';
import { type ConfirmRequest, useConfirm } from './dialogs.tsx';
import { type AccountPage, type AccountSection, sectionHeadingId } from './use-account-page.ts';

/** A section of the page: its heading (focus lands there after an action) and its outcome. */
export function Section({
  page,
  section,
  heading,
  level = 3,
  children,
}: {
  page: AccountPage;
  section: AccountSection;
  heading: string;
  /** A section of a group (3), or a group of its own (2). */
  level?: 2 | 3;
  children: ReactNode;
}) {
  const said = page.announcement?.section === section ? page.announcement : null;
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section
      className={`kc-account-section kc-account-level-${level}`}
      aria-labelledby={sectionHeadingId(section)}
    >
      <Heading id={sectionHeadingId(section)} tabIndex={-1}>
        {heading}
      </Heading>
      {/* Always there, so what it says is announced when it changes. */}
      <div role="status" className="kc-account-status">
        {said && said.tone !== 'error' ? (
          <p key={said.seq} className={`kc-notice kc-notice-${said.tone}`}>
            {said.text}
          </p>
        ) : null}
      </div>
      {said?.tone === 'error' ? (
        <p key={said.seq} className="kc-notice kc-notice-error" role="alert">
          {said.text}
        </p>
      ) : null}
      {children}
    </section>
  );
}

export function PasswordSection({ page }: { page: AccountPage }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState('');
  const next = useNewPassword();
  const currentRef = useRef<HTMLInputElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const password = page.overview?.password;
  const serverError = page.fieldErrors;

  useEffect(() => {
    if (open) currentRef.current?.focus();
  }, [open]);
  // A refusal on a field takes focus there, so it is read with its field.
  useEffect(() => {
    if (serverError.currentPassword) currentRef.current?.focus();
    if (serverError.newPassword) next.passwordRef.current?.focus();
  }, [serverError, next.passwordRef]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (page.busy) return;
    if (!current) {
      currentRef.current?.focus();
      return;
    }
    const problem = next.validate();
    if (problem) {
      problem.current?.focus();
      return;
    }
    if (await page.changePassword(current, next.password)) {
      setOpen(false);
      setCurrent('');
      next.changePassword('');
      next.changeConfirm('');
    }
  }

  return (
    <Section page={page} section="password" heading={t('account.password.heading')}>
      {password?.set ? (
        <p>
          {password.changedAt
            ? t('account.password.changedAt', { date: formatDate(i18n.language, password.changedAt) })
            : null}{' '}
          {password.expiresAt
            ? t('account.password.expiresAt', { date: formatDate(i18n.language, password.expiresAt) })
            : null}
        </p>
      ) : (
        <p>{t('account.password.notSet')}</p>
      )}
      {open ? (
        <form className="kc-account-form" noValidate onSubmit={submit}>
          <PasswordField
            label={t('account.password.current')}
            name="current-password"
            autoComplete="current-password"
            required
            maxLength={2048}
            value={current}
            inputRef={currentRef}
            onChange={(event) => setCurrent(event.target.value)}
            error={serverError.currentPassword}
          />
          <NewPasswordFields state={next} />
          {serverError.newPassword ? (
            <p className="kc-field-error" role="alert">
              {serverError.newPassword}
            </p>
          ) : null}
          <div className="kc-account-row-actions">
            <button type="submit" className="kc-button" aria-busy={page.busy === 'password'}>
              <PendingLabel pending={page.busy === 'password'}>{t('account.password.submit')}</PendingLabel>
            </button>
            <button
              type="button"
              className="kc-button kc-button-secondary"
              onClick={() => {
                setOpen(false);
                requestAnimationFrame(() => openerRef.current?.focus());
              }}
            >
              {t('account.page.cancel')}
            </button>
          </div>
        </form>
      ) : password?.set ? (
        <button
          ref={openerRef}
          type="button"
          className="kc-button kc-button-secondary kc-account-inline"
          onClick={() => setOpen(true)}
        >
          {t('account.password.change')}
        </button>
      ) : null}
    </Section>
  );
}

function PasskeyItem({
  page,
  passkey,
  ask,
}: {
  page: AccountPage;
  passkey: PasskeySummary;
  ask: (request: ConfirmRequest) => void;
}) {
  const { t, i18n } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(passkey.name);
  const fieldRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (renaming) fieldRef.current?.select();
  }, [renaming]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return fieldRef.current?.focus();
    if (await page.renamePasskey(passkey, trimmed)) setRenaming(false);
  }

  return (
    <li className="kc-account-item">
      <div className="kc-account-item-text">
        <strong>{passkey.name}</strong>
        <span>{passkey.synced ? t('account.passkeys.synced') : t('account.passkeys.deviceBound')}</span>
        <span>{t('account.passkeys.created', { date: formatDate(i18n.language, passkey.createdAt) })}</span>
        <span>
          {passkey.lastUsedAt
            ? t('account.passkeys.lastUsed', { date: formatDate(i18n.language, passkey.lastUsedAt) })
            : t('account.passkeys.neverUsed')}
        </span>
        {passkey.usableHere ? null : (
          <span>{t('account.passkeys.otherDomain', { domain: passkey.rpId })}</span>
        )}
      </div>
      {renaming ? (
        <form className="kc-account-rename" noValidate onSubmit={save}>
          <TextField
            label={t('account.passkeys.renameLabel')}
            name="passkey-name"
            autoComplete="off"
            required
            maxLength={64}
            value={name}
            inputRef={fieldRef}
            onChange={(event) => setName(event.target.value)}
          />
          <div className="kc-account-row-actions">
            <button type="submit" className="kc-button">
              {t('account.passkeys.save')}
            </button>
            <button
              type="button"
              className="kc-button kc-button-secondary"
              onClick={() => setRenaming(false)}
            >
              {t('account.page.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <div className="kc-account-row-actions">
          <button
            type="button"
            className="kc-button kc-button-secondary"
            aria-label={`${t('account.passkeys.rename')}: ${passkey.name}`}
            onClick={() => {
              setName(passkey.name);
              setRenaming(true);
            }}
          >
            {t('account.passkeys.rename')}
          </button>
          <button
            type="button"
            className="kc-button kc-button-secondary"
            aria-label={`${t('account.passkeys.remove')}: ${passkey.name}`}
            onClick={() =>
              ask({
                heading: t('account.passkeys.removeConfirm.heading'),
                body: t('account.passkeys.removeConfirm.body', { name: passkey.name }),
                confirm: t('account.passkeys.removeConfirm.confirm'),
                run: () => page.removePasskey(passkey),
              })
            }
          >
            {t('account.passkeys.remove')}
          </button>
        </div>
      )}
    </li>
  );
}

export function PasskeysSection({ page }: { page: AccountPage }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  if (!page.overview || page.overview.passkeys.mode === 'off') return null;
  return (
    <Section page={page} section="passkeys" heading={t('account.passkeys.heading')}>
      <p>{t('account.passkeys.intro')}</p>
      {page.passkeys.length === 0 ? <p>{t('account.passkeys.none')}</p> : null}
      <ul className="kc-account-list">
        {page.passkeys.map((passkey) => (
          <PasskeyItem key={passkey.id} page={page} passkey={passkey} ask={confirm.ask} />
        ))}
      </ul>
      {page.canCreatePasskey ? (
        <button
          type="button"
          className="kc-button kc-account-inline"
          aria-busy={page.busy === 'passkey-create'}
          onClick={() => void page.createPasskey()}
        >
          <PendingLabel pending={page.busy === 'passkey-create'}>{t('account.passkeys.create')}</PendingLabel>
        </button>
      ) : null}
      {confirm.dialog}
    </Section>
  );
}

/** A factor's name as the page shows it. */
export function factorName(t: Translate, factor: AccountFactor): string {
  if (factor.kind === 'authenticator-app') return t('account.factors.authenticatorApp');
  if (factor.kind === 'phone') return t('account.factors.phone', { phone: factor.phone ?? '' });
  return factor.deviceName
    ? t('account.factors.mobileApp', { device: factor.deviceName })
    : t('account.factors.mobileAppUnnamed');
}

export function FactorsSection({ page }: { page: AccountPage }) {
  const { t, i18n } = useTranslation();
  const confirm = useConfirm();
  const mfa = page.overview?.mfa;
  if (!mfa || (mfa.mode === 'off' && mfa.factors.length === 0)) return null;
  return (
    <Section page={page} section="factors" heading={t('account.factors.heading')}>
      {mfa.mode === 'required' ? <p>{t('account.factors.required')}</p> : null}
      {mfa.factors.length === 0 ? <p>{t('account.factors.none')}</p> : null}
      <ul className="kc-account-list">
        {mfa.factors.map((factor) => {
          const name = factorName(t, factor);
          return (
            <li key={factor.id} className="kc-account-item">
              <div className="kc-account-item-text">
                <strong>{name}</strong>
                <span>
                  {t('account.factors.since', { date: formatDate(i18n.language, factor.createdAt) })}
                </span>
              </div>
              <div className="kc-account-row-actions">
                {factor.canReplace ? (
                  <button
                    type="button"
                    className="kc-button kc-button-secondary"
                    aria-label={`${t('account.factors.replace')}: ${name}`}
                    onClick={() =>
                      page.replaceKeepsPasskeys(factor)
                        ? confirm.ask({
                            heading: t('account.factors.replaceConfirm.heading'),
                            body: t('account.factors.replaceConfirm.body', { name }),
                            confirm: t('account.factors.replaceConfirm.confirm'),
                            run: () => page.replaceFactor(factor),
                          })
                        : page.replaceFactor(factor)
                    }
                  >
                    {t('account.factors.replace')}
                  </button>
                ) : null}
                {factor.canRemove ? (
                  <button
                    type="button"
                    className="kc-button kc-button-secondary"
                    aria-label={`${t('account.factors.remove')}: ${name}`}
                    onClick={() =>
                      confirm.ask({
                        heading: t('account.factors.removeConfirm.heading'),
                        body: t('account.factors.removeConfirm.body', { name }),
                        confirm: t('account.factors.removeConfirm.confirm'),
                        run: () => page.removeFactor(factor, name),
                      })
                    }
                  >
                    {t('account.factors.remove')}
                  </button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      {mfa.canAdd ? (
        <button type="button" className="kc-button kc-account-inline" onClick={page.setUpFactor}>
          {t('account.factors.add')}
        </button>
      ) : null}
      {confirm.dialog}
    </Section>
  );
}

export function RecoverySection({ page }: { page: AccountPage }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const mfa = page.overview?.mfa;
  if (!mfa || mfa.factors.length === 0) return null;
  return (
    <Section page={page} section="recovery" heading={t('account.recovery.heading')}>
      <p>{t('account.recovery.remaining', { count: mfa.recoveryCodesRemaining })}</p>
      <button
        type="button"
        className="kc-button kc-button-secondary kc-account-inline"
        aria-busy={page.busy === 'recovery'}
        onClick={() =>
          confirm.ask({
            heading: t('account.recovery.renewConfirm.heading'),
            body: t('account.recovery.renewConfirm.body'),
            confirm: t('account.recovery.renewConfirm.confirm'),
            run: () => page.renewRecoveryCodes(),
          })
        }
      >
        <PendingLabel pending={page.busy === 'recovery'}>{t('account.recovery.renew')}</PendingLabel>
      </button>
      {confirm.dialog}
    </Section>
  );
}
