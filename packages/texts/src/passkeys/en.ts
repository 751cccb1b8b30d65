/**
 * Passkey texts outside the login route's first paint: the offer after a sign-in, the step-up an
 * app asks for, MFA with a passkey or security key, and their errors. Keys go screen → state →
 * element. (The e-mail step's passkey button and its errors are core texts: login.passkey.)
 */
export const passkeysEn = {
  titles: {
    offer: 'Sign in faster next time',
    stepUp: 'Confirm with a passkey',
    created: 'Passkey created',
  },
  offer: {
    heading: 'Sign in faster next time with a passkey',
    body: 'With a passkey you sign in with your fingerprint, face or screen lock instead of your password. It is kept on your device or in your password manager and works only on this website, so nobody can trick you into giving it away.',
    create: 'Create a passkey',
    notNow: 'Not now',
    created: 'Your passkey is ready. Next time, choose it when you sign in.',
    continue: 'Continue',
  },
  stepUp: {
    heading: 'Confirm with a passkey',
    body: '{{app}} asks you to confirm with a passkey or a security key. Your password cannot be used for this.',
    bodyNoApp:
      'This app asks you to confirm with a passkey or a security key. Your password cannot be used for this.',
    confirm: 'Confirm with a passkey',
    none: 'Your account has no passkey or security key for this website yet. Add one on your account page, then try again from the app.',
    account: 'Go to your account page',
  },
  mfa: {
    heading: 'Confirm it is you',
    intro: 'Use the passkey or security key you added to your account.',
    option: 'Use your passkey or security key',
    elsewhere:
      'Your passkey or security key works only on the website where you made it: {{domains}}. Sign in there to use it.',
  },
  waiting: 'Waiting for your passkey…',
  errors: {
    cancelled: 'No passkey was used. Try again when you are ready.',
    exists: 'This device already holds a passkey for your account.',
    limit:
      'Your account has as many passkeys as it may have. Remove one on your account page to add another.',
    failed: 'This passkey or security key could not be verified. Try again, or use another one.',
    expired: 'The request expired. Try again.',
    unsupported: 'This browser or device cannot use a passkey here.',
    rateLimited: 'Too many passkey attempts. Wait a few minutes, then try again.',
    notFound: 'Your account has no passkey or security key that works on this website.',
    signInAgain:
      'Your sign-in is no longer recent enough to add a passkey. Continue, and add one later on your account page.',
    unknown: 'Something went wrong. Try again.',
  },
};
