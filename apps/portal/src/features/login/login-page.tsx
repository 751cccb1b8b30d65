import { paths } from '@keycard/contract/paths';
import { Link, useLocation, useNavigate, useSearchParams } from '@keycard/web/router';
import { type FormEvent, useEffect, useLayoutEffect, useState } from 'react';
import { clearFirstPaintInput, firstPaintInput } from '../../lib/first-paint-input.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { isReauthentication } from '../../lib/reauthentication.ts';
import { signedInEmail } from '../../lib/signed-in.ts';
import { lastUser } from '../../lib/storage.ts';
import { EmailField, useEmailField } from '../../ui/email-field.tsx';
import { TextWithEmail } from '../../ui/email-text.tsx';
import { Checkbox, Notice } from '../../ui/fields.tsx';
import { Page } from '../../ui/page.tsx';
import './login.css';
import { BackToApp, Or, PasskeyButton, ReauthenticationNotice } from './login-parts.tsx';
import { passkeyLoginErrorTexts } from './passkey-login-texts.ts';
import { useFlowParams } from './use-flow-params.ts';
import { usePasskeyLogin } from './use-passkey-login.ts';

/** /login: the e-mail step. */
export function LoginPage() {
  useFlowParams();
  return <EmailStep />;
}

/** The password step's chunk (password-step.tsx): the route loads it, the e-mail step fetches it early. */
export const loadPasswordStep = () => import('./password-step.tsx');

function LoginNotices() {
  const { t } = useTranslation();
  const params = useSearchParams();
  if (isReauthentication(params)) return <ReauthenticationNotice />;
  if (params.has('activateSuccess'))
    return <Notice tone="success">{t('login.notices.accountCreated')}</Notice>;
  if (params.has('resetPassword')) return <Notice tone="success">{t('login.notices.resetPassword')}</Notice>;
  if (params.has('loggedOut')) return <Notice tone="success">{t('login.notices.loggedOut')}</Notice>;
  return null;
}

function EmailStep() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const params = useSearchParams();
  const remembered = lastUser.get();
  const emailField = useEmailField(firstPaintInput()?.email || (params.get('email') ?? remembered ?? ''));
  const [remember, setRemember] = useState(remembered !== null);
  const { inputRef, setValue } = emailField;
  // What was typed into the server-rendered form stays, to the last character: read once this
  // step has replaced the form, before the browser handles any further input.
  useLayoutEffect(() => {
    const typed = firstPaintInput();
    clearFirstPaintInput();
    if (!typed) return;
    if (typed.email) setValue(typed.email);
    if (typed.focused) inputRef.current?.focus();
  }, [inputRef, setValue]);
  // The password step's chunk is fetched now, while the address is typed: its Next never waits.
  useEffect(() => {
    loadPasswordStep().catch(() => undefined);
  }, []);
  const titleKey = params.has('activateSuccess') ? 'titles.accountCreated' : 'titles.login';
  const passkey = usePasskeyLogin();
  // 'preferred': the passkey first, the e-mail below it as the other way in.
  const preferred = passkey.offered && passkey.mode === 'preferred';

  function submit(event: FormEvent) {
    event.preventDefault();
    const address = emailField.check();
    if (!address) return;
    if (remember) lastUser.set(address);
    else lastUser.clear();
    navigate(`${paths.loginPassword}${location.search}`, { state: { email: address } });
  }

  return (
    <Page titleKey={titleKey} heading={t('login.email.heading')}>
      <LoginNotices />
      {passkey.error ? <Notice tone="error">{t(passkeyLoginErrorTexts[passkey.error])}</Notice> : null}
      {preferred ? (
        <>
          <PasskeyButton passkey={passkey} primary />
          <Or />
        </>
      ) : null}
      <LiveSession />
      <p>{t('login.email.intro')}</p>
      <form onSubmit={submit} noValidate>
        <EmailField
          field={emailField}
          label={t('login.email.label')}
          // The autofill offers this browser's passkeys for the site too (conditional UI).
          autoComplete={passkey.offered ? 'username webauthn' : 'username'}
        />
        <Checkbox
          label={t('login.email.remember')}
          name="remember"
          checked={remember}
          onChange={(event) => setRemember(event.target.checked)}
        />
        <button className={preferred ? 'kc-button kc-button-secondary' : 'kc-button'} type="submit">
          {t('login.email.submit')}
        </button>
      </form>
      {passkey.offered && !preferred ? (
        <>
          <Or />
          <PasskeyButton passkey={passkey} primary={false} />
        </>
      ) : null}
      <BackToApp />
    </Page>
  );
}

/**
 * This browser is signed in already and no app is asking (an app's request goes on by itself,
 * useFlowParams): say who, with the way on (the signed-in hand-off) and the way out.
 */
function LiveSession() {
  const { t } = useTranslation();
  const params = useSearchParams();
  const email = signedInEmail();
  if (!email || params.has('iid') || params.has('loggedOut') || isReauthentication(params)) return null;
  return (
    <div className="kc-live-session">
      <Notice tone="info">
        <TextWithEmail text={t('login.signedIn.notice', { email })} email={email} />
      </Notice>
      <div className="kc-actions">
        <Link className="kc-button" to={paths.authenticated}>
          {t('login.signedIn.continue')}
        </Link>
        <Link className="kc-button kc-button-secondary" to={paths.logout}>
          {t('login.signedIn.logOut')}
        </Link>
      </div>
      <p>{t('login.signedIn.other')}</p>
    </div>
  );
}
