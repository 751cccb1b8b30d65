/**
 * English, the core: every text outside the account lifecycle and MFA flows (those are in
 * lifecycle/en.ts and mfa/en.ts; en.ts joins all three). The portal's login route carries
 * only this part; the flows' screens load the rest with their chunks.
 *
 * Keys go screen → state → element.
 * Parameters are {{name}} placeholders, filled by the caller; other languages must have
 * exactly the same keys and placeholders (texts.test.ts checks).
 */
export const enCore = {
  common: {
    appName: 'Keycard',
    loading: 'Loading…',
    next: 'Next',
    back: 'Back',
    close: 'Close',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
    required: 'This field is required',
    invalidEmail: "This doesn't appear to be a valid e-mail",
    networkError: "We're having trouble contacting our servers. Try again.",
    contactSupport: 'Contact support',
    backToLogin: 'Back to login',
    language: 'Language',
    logoAlt: '{{name}} logo',
    errorSummary: 'Please correct the highlighted field.',
  },
  titles: {
    login: 'Log in',
    loginPassword: 'Enter your password',
    accountCreated: 'Account created',
    logout: 'Logging out',
    authenticate: 'Signing in',
    authenticated: 'Signed in',
    authorize: 'Continuing to your application',
    notFound: 'Page not found',
    unknownError: 'Something went wrong',
    loadFailed: 'Page did not load',
    accountDisabled: 'Account disabled',
    partnerSso: 'Partner sign-in',
    requestRefused: 'Sign-in request refused',
    logoutRefused: 'Log-out request refused',
  },
  login: {
    email: {
      heading: 'Log in',
      intro: 'Enter the e-mail address of your account.',
      label: 'E-mail',
      remember: 'Remember my e-mail',
      submit: 'Next',
    },
    password: {
      heading: 'Enter your password',
      back: 'Back to e-mail',
      change: 'Change e-mail',
      signedInAs: 'Logging in as {{email}}',
      label: 'Password',
      forgot: 'Forgot your password?',
      submit: 'Log in',
      trouble: 'Trouble logging in?',
    },
    /** A live session on the e-mail step (docs/account.md): who, go on, or log out. */
    signedIn: {
      notice: 'You are signed in as {{email}}.',
      continue: 'Continue',
      logOut: 'Log out',
      other: 'To use another account, enter its e-mail address below.',
    },
    notices: {
      loggedOut: 'You have been logged out.',
      resetPassword: 'Your password has been changed. Log in with your new password.',
      accountCreated: 'Your account has been created. Log in to get started.',
      reauthenticate: 'For your security, please enter your password again.',
    },
    /** Part of an app's sign-in request: go back to the app without signing in (OIDC Core §3.1.2.6). */
    app: {
      back: 'Back to {{app}}',
    },
    /** Signing in with a passkey on the e-mail step (the autofill and the button; docs/passkeys.md). */
    passkey: {
      signIn: 'Sign in with a passkey',
      /** The password step's button: a passkey instead of the password. */
      instead: 'Use a passkey instead',
      or: 'or',
      waiting: 'Waiting for your passkey…',
      errors: {
        cancelled: 'No passkey was used. Try again, or continue with your e-mail address.',
        failed: 'This passkey could not sign you in. Try another one, or continue with your e-mail address.',
        expired: 'The passkey request expired. Try again.',
        unsupported: 'This browser cannot use a passkey here. Continue with your e-mail address.',
        rateLimited: 'Too many passkey attempts. Wait a few minutes, then try again.',
        removed:
          'This passkey is no longer registered here; it may have been removed. Use another one, or continue with your e-mail address.',
      },
    },
    errors: {
      invalidCredentials: 'Invalid e-mail or password. Try again.',
      /** After three failures in a row: the attempts left before the pause (the same with an account or without). */
      attemptsLeft: {
        one: 'Invalid e-mail or password. After {{count}} more failed attempt, sign-in with this address pauses for a while. You can reset your password instead.',
        other:
          'Invalid e-mail or password. After {{count}} more failed attempts, sign-in with this address pauses for a while. You can reset your password instead.',
      },
      busy: 'Too many sign-ins are being checked right now. Try again in a few seconds.',
    },
    /** A refused attempt: the limit that refused it (docs/security.md), and when to try again. */
    limits: {
      address: 'Too many attempts from your network. Try again {{when}}.',
      account: 'This account is locked for your security. Try again {{when}} or reset your password.',
      ready: 'You can try again now.',
      reset: 'Reset your password',
    },
  },
  authenticate: {
    loading: 'Signing you in…',
  },
  authenticated: {
    loading: 'Taking you to your application…',
  },
  partnerSso: {
    loading: 'Signing you in…',
    emailUnverified: {
      heading: 'This address is not confirmed',
      body: 'The application you came from has not confirmed your e-mail address, so we cannot sign you in with it. Confirm your address with that application and try again, or sign in here with your password.',
      signIn: 'Go to sign-in',
    },
    networkDialog: {
      heading: 'Connection problem',
      body: "We're having trouble contacting our servers. Check your connection, then reload to try again.",
      reload: 'Reload',
    },
  },
  logout: {
    loading: 'Logging you out…',
    provider: {
      body: 'You are being logged out. If nothing happens, select Log out.',
      submit: 'Log out',
    },
  },
  errors: {
    notFound: {
      heading: 'Page not found',
      body: "The page you are looking for doesn't exist or has moved.",
    },
    unknown: {
      heading: 'Something went wrong',
      body: 'We could not complete your request. Please go back to the login page and try again.',
    },
    loadFailed: {
      heading: 'This page did not load',
      body: 'Part of this page could not be loaded. Check your connection and try again.',
      retry: 'Try again',
    },
    accountDisabled: {
      heading: 'Your account is locked',
      body: 'For your security, sign-in to this account is blocked for now. Reset your password or contact support to regain access.',
      reset: 'Reset your password',
    },
    /** The identity provider's own error page: one explanation per OAuth error code. */
    provider: {
      next: 'Go back to the application and try again. If this keeps happening, contact the application’s support and give them the error code.',
      codeLabel: 'Error code',
      reasons: {
        invalid_request: 'The application’s request is incomplete or malformed.',
        invalid_client: 'The application is not registered with this sign-in service.',
        invalid_redirect_uri:
          'The application asked to send you back to an address that is not registered for it.',
        unauthorized_client: 'The application is not allowed to sign you in this way.',
        invalid_scope: 'The application asked for access that this service does not grant.',
        unsupported_response_type: 'The application asked for a kind of answer this service does not give.',
        server_error: 'The sign-in service could not complete the request. Try again in a moment.',
        temporarily_unavailable: 'The sign-in service is briefly unavailable. Try again in a moment.',
        other: 'The application’s request could not be completed.',
      },
    },
  },
} as const;
