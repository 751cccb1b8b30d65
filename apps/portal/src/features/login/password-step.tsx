import { paths } from '@keycard/contract/paths';
import { isValidEmail } from '@keycard/contract/rules';
import { Link, useLocation, useNavigate, useSearchParams } from '@keycard/web/router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useBranding } from '../../lib/branding.tsx';
import { useTranslation } from '../../lib/i18n.tsx';
import { lastUser } from '../../lib/storage.ts';
import { TextWithEmail } from '../../ui/email-text.tsx';
import { Notice, PasswordField } from '../../ui/fields.tsx';
import { Page, PendingLabel } from '../../ui/page.tsx';
import { WaitSentence } from '../../ui/wait-sentence.tsx';
import { loginErrorTexts } from './login-errors.ts';
import { BackToApp, Or, PasskeyButton, ReauthenticationNotice } from './login-parts.tsx';
import { passkeyLoginErrorTexts } from './passkey-login-texts.ts';
import { useFlowParams } from './use-flow-params.ts';
import { useHelpLink } from './use-help-link.ts';
import { usePasskeyLogin } from './use-passkey-login.ts';
import { type LoginWait, usePasswordLogin } from './use-password-login.ts';

/**
 * /login/password: the password step (other /login/… addresses are the not-found page). A
 * chunk of its own, which the e-mail step fetches as soon as it is drawn (`loadPasswordStep`),
 * so the login route does not carry it and its Next does not wait for it.
 */
export function LoginPasswordPage() {
  useFlowParams();
  return <PasswordStep />;
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
  const { login, error, attemptsLeft, pending, wait, ready } = usePasswordLogin();
  const passkey = usePasskeyLogin({ autofill: false });
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
        <span>
          <TextWithEmail text={t('login.password.signedInAs', { email })} email={email} />
        </span>
        <Link className="kc-link" to={backTo} state={{ email }}>
          {t('login.password.change')}
        </Link>
      </div>
      <ReauthenticationNotice />
      {passkey.error ? <Notice tone="error">{t(passkeyLoginErrorTexts[passkey.error])}</Notice> : null}
      {wait ? (
        <LimitNotice wait={wait} />
      ) : ready ? (
        <Notice tone="info">{t('login.limits.ready')}</Notice>
      ) : error === 'invalid' && attemptsLeft ? (
        <Notice tone="error">{t('login.errors.attemptsLeft', { count: attemptsLeft })}</Notice>
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
      {passkey.offered ? (
        <>
          <Or />
          <PasskeyButton passkey={passkey} primary={false} label="login.passkey.instead" />
        </>
      ) : null}
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
