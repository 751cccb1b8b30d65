/**
 * Account lifecycle texts: activation, registration, password reset and expiry, e-mail
 * verification, and the mails they send. Keys go screen → state → element.
 */
export const lifecycleEn = {
  titles: {
    activate: 'Activate your account',
    register: 'Create your account',
    activateSent: 'Activation e-mail sent',
    activateExpired: 'Activation link expired',
    resetPassword: 'Reset your password',
    resetPasswordSent: 'Reset e-mail sent',
    resetPasswordUpdate: 'Set a new password',
    verifyEmail: 'Verify your e-mail',
    verifyExpired: 'Verification link expired',
    passwordExpired: 'Password expired',
    passwordWillExpire: 'Password expires soon',
  },
  passwordForm: {
    password: 'New password',
    confirmPassword: 'Confirm new password',
    hint: 'Use at least 8 characters with uppercase and lowercase letters and a number.',
    secretQuestion: 'Secret question',
    chooseQuestion: 'Choose a question',
    secretAnswer: 'Secret answer',
    errors: {
      format: 'It must contain uppercase and lowercase letters, a number and be at least 8 characters long',
      mismatch: "These passwords don't match",
      history: 'Your new password cannot be the same as your last four passwords.',
      leaked: 'This password appears in known data breaches and is not safe. Choose a different one.',
    },
  },
  secretQuestions: {
    motherMaidenName: "What is your mother's maiden name?",
    fatherMiddleName: "What is your father's middle name?",
    townWhereBorn: 'In which town were you born?',
    firstOverseasTrip: 'Where did you travel on your first trip abroad?',
    firstSchool: 'What was the name of your first school?',
    firstPetName: 'What was the name of your first pet?',
  },
  activate: {
    checking: 'Checking your activation link…',
    heading: 'Activate your account',
    intro:
      'Choose a password and a secret question for {{email}}. If you call us for help, we ask you this question to make sure it is you. We never ask for your password.',
    submit: 'Activate account',
  },
  register: {
    checking: 'Checking your registration link…',
    heading: 'Create your account',
    intro: 'Choose a password and a secret question for {{email}}.',
    submit: 'Create account',
    signingIn: 'Signing you in…',
    invalid: {
      heading: 'This registration link is not valid',
      body: 'The link may have expired or been used already. Ask the person who sent it to you for a new one.',
    },
  },
  activateSent: {
    heading: 'Check your inbox',
    body: {
      one: 'If your account is waiting to be activated, we have sent a new activation link to your e-mail address. The link is valid for {{count}} day.',
      other:
        'If your account is waiting to be activated, we have sent a new activation link to your e-mail address. The link is valid for {{count}} days.',
    },
    help: 'No e-mail? Check your spam folder, or contact support.',
  },
  activateExpired: {
    heading: 'This activation link has expired',
    body: 'Enter your e-mail address and we will send you a new activation link.',
    email: 'E-mail',
    submit: 'Send a new link',
  },
  resetRequest: {
    heading: 'Reset your password',
    intro: 'Enter the e-mail address of your account and we will send you a link to reset your password.',
    email: 'E-mail',
    submit: 'Send reset link',
    tokenExpired: 'That reset password link has expired. Request a new one.',
  },
  resetSent: {
    heading: 'Check your inbox',
    body: {
      one: 'If an account exists for {{email}}, we have sent it a link to reset the password. The link is valid for {{count}} minute.',
      other:
        'If an account exists for {{email}}, we have sent it a link to reset the password. The link is valid for {{count}} minutes.',
    },
    bodyWithoutEmail: {
      one: 'If an account exists for the address you entered, we have sent it a link to reset the password. The link is valid for {{count}} minute.',
      other:
        'If an account exists for the address you entered, we have sent it a link to reset the password. The link is valid for {{count}} minutes.',
    },
    resend: 'Send the e-mail again',
    resent: 'We have sent the e-mail again.',
    trouble: 'Trouble logging in?',
  },
  resetUpdate: {
    checking: 'Checking your reset link…',
    heading: 'Set a new password',
    intro: 'Choose a new password for {{email}}.',
    submit: 'Change password',
  },
  verifyEmail: {
    checking: 'Checking your verification link…',
    heading: 'Verify your e-mail',
    intro: 'Enter your e-mail address to confirm that it belongs to you.',
    email: 'E-mail',
    submit: 'Verify e-mail',
    mismatch: "This e-mail doesn't match our records. Please try again.",
    success: 'Your e-mail address has been verified. Taking you onwards…',
  },
  verifyExpired: {
    heading: 'This verification link has expired',
    body: {
      one: 'Verification links are valid for {{count}} hour and work once. Log in again to request a new one.',
      other:
        'Verification links are valid for {{count}} hours and work once. Log in again to request a new one.',
    },
  },
  passwordExpired: {
    heading: 'Your password has expired',
  },
  passwordWillExpire: {
    heading: 'Your password will expire soon',
    today: 'Your password expires today.',
    tomorrow: 'Your password expires tomorrow.',
    inDays: {
      one: 'Your password expires in {{count}} day.',
      other: 'Your password expires in {{count}} days.',
    },
    resetLater: 'Reset later',
  },
  verificationPrompt: {
    heading: 'Verify your e-mail',
    body: {
      one: 'Before you continue, confirm that {{email}} is your e-mail address. We will send you a verification link that is valid for {{count}} hour.',
      other:
        'Before you continue, confirm that {{email}} is your e-mail address. We will send you a verification link that is valid for {{count}} hours.',
    },
    send: 'Send verification e-mail',
    sentHeading: 'Check your inbox',
    sentBody: 'We have sent a verification link to {{email}}. Open it to continue.',
    notReceived: 'I did not receive the e-mail',
    logout: 'Log out',
  },
  sessionDialog: {
    heading: 'Log out first',
    body: 'You are logged in. To use this link, you must log out first.',
    confirm: 'Log out',
  },
  errors: {
    rateLimited: 'You have made too many requests. Please wait a few minutes and try again.',
    rateLimitedNetwork: 'Too many requests from your network. Please try again {{when}}.',
    rateLimitedVerification:
      'We have already sent you several verification e-mails. You can ask for another one {{when}}.',
    captcha: 'We could not confirm that this request was made by a person. Reload the page and try again.',
  },
  mail: {
    linkHint: 'If the button does not work, copy this link into your browser:',
    footer: 'This e-mail was sent by {{tenant}}.',
    activation: {
      subject: 'Activate your {{tenant}} account',
      heading: 'Activate your account',
      body: 'An account has been created for you at {{tenant}}. Choose your password to activate it.',
      action: 'Activate account',
      expiry: 'This link is valid for {{days}} days and works once.',
      ignore: 'If you were not expecting this invitation, you can ignore this e-mail.',
    },
    reset: {
      subject: 'Reset your {{tenant}} password',
      heading: 'Reset your password',
      body: 'We received a request to reset the password of your {{tenant}} account.',
      action: 'Reset password',
      expiry: 'This link is valid for {{minutes}} minutes and works once.',
      ignore: 'If you did not ask for this, you can ignore this e-mail: your password stays the same.',
    },
    verifyEmail: {
      subject: 'Verify your e-mail address for {{tenant}}',
      heading: 'Verify your e-mail address',
      body: 'Confirm that this is the e-mail address of your {{tenant}} account.',
      action: 'Verify e-mail',
      expiry: 'This link is valid for {{hours}} hours and works once.',
      ignore: 'If you did not ask for this, you can ignore this e-mail.',
    },
    partnerLinksRemoved: {
      subject: 'Partner sign-ins removed from your {{tenant}} account',
      heading: 'Partner sign-ins removed',
      body: 'Your {{tenant}} account was created or linked through a partner application before you took it over. Now that you have, these partners can no longer sign in to it:',
      relink:
        'If you use one of these partners yourself, sign in with your password and link it again from your account.',
      action: 'Sign in',
      notYou:
        'If you did not reset your password or verify your address just now, contact your administrator.',
    },
  },
} as const;
