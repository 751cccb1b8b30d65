import { paths } from '@keycard/contract/paths';
import { isValidEmail } from '@keycard/contract/rules';
import { Link, useLocation, useNavigate, useSearchParams } from '@keycard/web/router';
import { type FormEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useBranding } from '../../lib/branding.tsx';
import { clearFirstPaintInput, firstPaintInput } from '../../lib/first-paint-input.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { isReauthentication } from '../../lib/reauthentication.ts';
import { lastUser } from '../../lib/storage.ts';
import { EmailField, useEmailField } from '../../ui/email-field.tsx';
import { Checkbox, Notice, PasswordField } from '../../ui/fields.tsx';
import { Page, PendingLabel } from '../../ui/page.tsx';
import { WaitSentence } from '../../ui/wait-sentence.tsx';
import { loginErrorTexts } from './login-errors.ts';
import { useBackToApp } from './use-back-to-app.ts';
import { useFlowParams } from './use-flow-params.ts';
import { useHelpLink } from './use-help-link.ts';
import { type LoginWait, usePasswordLogin } from './use-password-login.ts';

/** /login: the e-mail step. */
export function LoginPage() {
  useFlowParams();
  return <EmailStep />;
}

/** /login/password: the password step (other /login/… addresses are the not-found page). */
export function LoginPasswordPage() {
  useFlowParams();
  return <PasswordStep />;
}

/** An app asked for a fresh sign-in (prompt=login, max_age): say why the password is asked again. */
function ReauthenticationNotice() {
  const { t } = useTranslation();
  const params = useSearchParams();
  return isReauthentication(params) ? <Notice tone="info">{t('login.notices.reauthenticate')}</Notice> : null;
}

/** Part of an app's sign-in request: "Back to <app>" ends it, and the app learns the user declined. */
function BackToApp() {
  const { t } = useTranslation();
  const back = useBackToApp();
  if (!back) return null;
  return (
    <div className="kc-links">
      <button type="button" className="kc-back" onClick={back.goBack} disabled={back.pending}>
        {t('login.app.back', { app: back.appName })}
      </button>
    </div>
  );
}

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
  const titleKey = params.has('activateSuccess') ? 'titles.accountCreated' : 'titles.login';

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
      <p>{t('login.email.intro')}</p>
      <form onSubmit={submit} noValidate>
        <EmailField field={emailField} label={t('login.email.label')} />
        <Checkbox
          label={t('login.email.remember')}
          name="remember"
          checked={remember}
          onChange={(event) => setRemember(event.target.checked)}
        />
        <button className="kc-button" type="submit">
          {t('login.email.submit')}
        </button>
      </form>
      <BackToApp />
    </Page>
  );
}

/**
 * The address sent by the server-rendered e-mail form (a GET to the password step before the
 * script ran), when it is one; the e-mail step's checks apply to it as to a typed one.
 */
function addressFromFirstPaint(params: URLSearchParams): string | undefined {
  const value = params.get('email')?.trim();
  return value && isValidEmail(value) ? value : undefined;
}

function PasswordStep() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const branding = useBranding();
  const params = useSearchParams();
  const email = (location.state as { email?: string } | null)?.email ?? addressFromFirstPaint(params);
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const { login, error, pending, wait, ready } = usePasswordLogin();
  const inputRef = useRef<HTMLInputElement>(null);
  const helpUrl = useHelpLink(email, params.get('partnerCode'), branding?.theme.links.loginHelpUrl ?? null);

  useEffect(() => {
    if (!email) navigate(`${paths.login}${location.search}`, { replace: true });
  }, [email, navigate, location.search]);
  // The server-rendered e-mail form (sent before the script ran) asks to remember the address.
  useEffect(() => {
    if (email && params.get('remember') === '1') lastUser.set(email);
  }, [email, params]);
  const refused = wait !== null;
  useEffect(() => {
    if (error || refused) inputRef.current?.focus();
  }, [error, refused]);
  if (!email) return null;

  const backTo = `${paths.login}${location.search}`;
  const resetQuery = new URLSearchParams({ email });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setFieldError(t('common.required'));
      inputRef.current?.focus();
      return;
    }
    setFieldError(undefined);
    void login(email as string, password);
  }

  return (
    <Page titleKey="titles.loginPassword" heading={t('login.password.heading')}>
      <button type="button" className="kc-back" onClick={() => navigate(backTo, { state: { email } })}>
        <span aria-hidden="true">←</span> {t('login.password.back')}
      </button>
      <div className="kc-identity">
        <span>{t('login.password.signedInAs', { email })}</span>
        <Link className="kc-link" to={backTo} state={{ email }}>
          {t('login.password.change')}
        </Link>
      </div>
      <ReauthenticationNotice />
      {wait ? (
        <LimitNotice wait={wait} />
      ) : ready ? (
        <Notice tone="info">{t('login.limits.ready')}</Notice>
      ) : error ? (
        <Notice tone="error">{t(loginErrorTexts[error])}</Notice>
      ) : null}
      <form onSubmit={submit} noValidate>
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordField
          label={t('login.password.label')}
          name="password"
          autoComplete="current-password"
          required
          value={password}
          inputRef={inputRef}
          onChange={(event) => setPassword(event.target.value)}
          onBlur={() => setFieldError(password ? undefined : fieldError)}
          error={fieldError}
        />
        {/* No "Log in" while a limit refuses it: it comes back when the wait ends. */}
        <button className="kc-button" type="submit" disabled={pending || refused} aria-busy={pending}>
          <PendingLabel pending={pending}>{t('login.password.submit')}</PendingLabel>
        </button>
      </form>
      <div className="kc-links">
        <Link className="kc-link" to={`${paths.resetPassword}?${resetQuery}`}>
          {t('login.password.forgot')}
        </Link>
        {helpUrl ? (
          <a className="kc-link" href={helpUrl} target="_blank" rel="noopener noreferrer">
            {t('login.password.trouble')}
          </a>
        ) : null}
      </div>
      <BackToApp />
    </Page>
  );
}

/**
 * Too many attempts from this network (the address limit; an account's lockout goes to the
 * account-disabled page): when a retry may pass, in words ("in 14 minutes").
 */
function LimitNotice({ wait }: { wait: LoginWait }) {
  return (
    <Notice tone="error">
      <WaitSentence textKey="login.limits.address" seconds={wait.seconds} />
    </Notice>
  );
}
