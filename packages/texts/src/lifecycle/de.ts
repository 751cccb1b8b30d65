import type { Texts } from '../en.ts';

export const lifecycleDe: Texts['lifecycle'] = {
  titles: {
    activate: 'Konto aktivieren',
    register: 'Konto erstellen',
    activateSent: 'Aktivierungs-E-Mail gesendet',
    activateExpired: 'Aktivierungslink abgelaufen',
    resetPassword: 'Passwort zurücksetzen',
    resetPasswordSent: 'E-Mail zum Zurücksetzen gesendet',
    resetPasswordUpdate: 'Neues Passwort festlegen',
    verifyEmail: 'E-Mail-Adresse bestätigen',
    verifyExpired: 'Bestätigungslink abgelaufen',
    passwordExpired: 'Passwort abgelaufen',
    passwordWillExpire: 'Passwort läuft bald ab',
  },
  passwordForm: {
    password: 'Neues Passwort',
    confirmPassword: 'Neues Passwort bestätigen',
    hint: 'Verwenden Sie mindestens 8 Zeichen mit Groß- und Kleinbuchstaben und einer Ziffer.',
    secretQuestion: 'Sicherheitsfrage',
    chooseQuestion: 'Bitte wählen Sie eine Frage',
    secretAnswer: 'Antwort auf die Sicherheitsfrage',
    errors: {
      format:
        'Es muss Groß- und Kleinbuchstaben sowie eine Ziffer enthalten und mindestens 8 Zeichen lang sein',
      mismatch: 'Die Passwörter stimmen nicht überein',
      history: 'Ihr neues Passwort darf keinem Ihrer letzten vier Passwörter entsprechen.',
      leaked:
        'Dieses Passwort taucht in bekannten Datenlecks auf und ist nicht sicher. Bitte wählen Sie ein anderes.',
    },
  },
  secretQuestions: {
    motherMaidenName: 'Wie lautet der Geburtsname Ihrer Mutter?',
    fatherMiddleName: 'Wie lautet der zweite Vorname Ihres Vaters?',
    townWhereBorn: 'In welchem Ort sind Sie geboren?',
    firstOverseasTrip: 'Wohin führte Ihre erste Auslandsreise?',
    firstSchool: 'Wie hieß Ihre erste Schule?',
    firstPetName: 'Wie hieß Ihr erstes Haustier?',
  },
  activate: {
    checking: 'Ihr Aktivierungslink wird geprüft…',
    heading: 'Konto aktivieren',
    intro:
      'Wählen Sie ein Passwort und eine Sicherheitsfrage für {{email}}. Wenn Sie uns um Hilfe bitten, stellen wir Ihnen diese Frage, um sicherzugehen, dass Sie es sind. Nach Ihrem Passwort fragen wir nie.',
    submit: 'Konto aktivieren',
  },
  register: {
    checking: 'Ihr Registrierungslink wird geprüft…',
    heading: 'Konto erstellen',
    intro: 'Wählen Sie ein Passwort und eine Sicherheitsfrage für {{email}}.',
    submit: 'Konto erstellen',
    signingIn: 'Sie werden angemeldet…',
    invalid: {
      heading: 'Dieser Registrierungslink ist ungültig',
      body: 'Der Link ist möglicherweise abgelaufen oder wurde bereits verwendet. Bitten Sie die Person, die ihn Ihnen gesendet hat, um einen neuen Link.',
    },
  },
  activateSent: {
    heading: 'Bitte prüfen Sie Ihren Posteingang',
    body: {
      one: 'Falls Ihr Konto noch auf die Aktivierung wartet, haben wir einen neuen Aktivierungslink an Ihre E-Mail-Adresse gesendet. Der Link ist {{count}} Tag lang gültig.',
      other:
        'Falls Ihr Konto noch auf die Aktivierung wartet, haben wir einen neuen Aktivierungslink an Ihre E-Mail-Adresse gesendet. Der Link ist {{count}} Tage lang gültig.',
    },
    help: 'Keine E-Mail erhalten? Prüfen Sie Ihren Spam-Ordner oder wenden Sie sich an den Support.',
  },
  activateExpired: {
    heading: 'Dieser Aktivierungslink ist abgelaufen',
    body: 'Geben Sie Ihre E-Mail-Adresse ein, und wir senden Ihnen einen neuen Aktivierungslink.',
    email: 'E-Mail-Adresse',
    submit: 'Neuen Link senden',
  },
  resetRequest: {
    heading: 'Passwort zurücksetzen',
    intro:
      'Geben Sie die E-Mail-Adresse Ihres Kontos ein, und wir senden Ihnen einen Link zum Zurücksetzen Ihres Passworts.',
    email: 'E-Mail-Adresse',
    submit: 'Link zum Zurücksetzen senden',
    tokenExpired: 'Dieser Link zum Zurücksetzen des Passworts ist abgelaufen. Fordern Sie einen neuen an.',
  },
  resetSent: {
    heading: 'Bitte prüfen Sie Ihren Posteingang',
    body: {
      one: 'Falls ein Konto für {{email}} existiert, haben wir dorthin einen Link zum Zurücksetzen des Passworts gesendet. Der Link ist {{count}} Minute lang gültig.',
      other:
        'Falls ein Konto für {{email}} existiert, haben wir dorthin einen Link zum Zurücksetzen des Passworts gesendet. Der Link ist {{count}} Minuten lang gültig.',
    },
    bodyWithoutEmail: {
      one: 'Falls ein Konto für die eingegebene Adresse existiert, haben wir dorthin einen Link zum Zurücksetzen des Passworts gesendet. Der Link ist {{count}} Minute lang gültig.',
      other:
        'Falls ein Konto für die eingegebene Adresse existiert, haben wir dorthin einen Link zum Zurücksetzen des Passworts gesendet. Der Link ist {{count}} Minuten lang gültig.',
    },
    resend: 'E-Mail erneut senden',
    resent: 'Wir haben die E-Mail erneut gesendet.',
    trouble: 'Probleme bei der Anmeldung?',
  },
  resetUpdate: {
    checking: 'Ihr Link wird geprüft…',
    heading: 'Neues Passwort festlegen',
    intro: 'Wählen Sie ein neues Passwort für {{email}}.',
    submit: 'Passwort ändern',
  },
  verifyEmail: {
    checking: 'Ihr Bestätigungslink wird geprüft…',
    heading: 'E-Mail-Adresse bestätigen',
    intro: 'Geben Sie Ihre E-Mail-Adresse ein, um zu bestätigen, dass sie Ihnen gehört.',
    email: 'E-Mail-Adresse',
    submit: 'E-Mail-Adresse bestätigen',
    mismatch: 'Diese E-Mail-Adresse stimmt nicht mit unseren Daten überein. Bitte versuchen Sie es erneut.',
    success: 'Ihre E-Mail-Adresse wurde bestätigt. Sie werden weitergeleitet…',
  },
  verifyExpired: {
    heading: 'Dieser Bestätigungslink ist abgelaufen',
    body: {
      one: 'Bestätigungslinks sind {{count}} Stunde lang gültig und können einmal verwendet werden. Melden Sie sich erneut an, um einen neuen Link anzufordern.',
      other:
        'Bestätigungslinks sind {{count}} Stunden lang gültig und können einmal verwendet werden. Melden Sie sich erneut an, um einen neuen Link anzufordern.',
    },
  },
  passwordExpired: {
    heading: 'Ihr Passwort ist abgelaufen',
  },
  passwordWillExpire: {
    heading: 'Ihr Passwort läuft bald ab',
    today: 'Ihr Passwort läuft heute ab.',
    tomorrow: 'Ihr Passwort läuft morgen ab.',
    inDays: {
      one: 'Ihr Passwort läuft in {{count}} Tag ab.',
      other: 'Ihr Passwort läuft in {{count}} Tagen ab.',
    },
    resetLater: 'Später zurücksetzen',
  },
  verificationPrompt: {
    heading: 'E-Mail-Adresse bestätigen',
    body: {
      one: 'Bevor Sie fortfahren, bestätigen Sie bitte, dass {{email}} Ihre E-Mail-Adresse ist. Wir senden Ihnen einen Bestätigungslink, der {{count}} Stunde lang gültig ist.',
      other:
        'Bevor Sie fortfahren, bestätigen Sie bitte, dass {{email}} Ihre E-Mail-Adresse ist. Wir senden Ihnen einen Bestätigungslink, der {{count}} Stunden lang gültig ist.',
    },
    send: 'Bestätigungs-E-Mail senden',
    sentHeading: 'Bitte prüfen Sie Ihren Posteingang',
    sentBody: 'Wir haben einen Bestätigungslink an {{email}} gesendet. Öffnen Sie ihn, um fortzufahren.',
    notReceived: 'Ich habe keine E-Mail erhalten',
    logout: 'Abmelden',
  },
  sessionDialog: {
    heading: 'Bitte zuerst abmelden',
    body: 'Sie sind angemeldet. Um diesen Link zu verwenden, müssen Sie sich zuerst abmelden.',
    confirm: 'Abmelden',
  },
  errors: {
    rateLimited:
      'Sie haben zu viele Anfragen gestellt. Bitte warten Sie einige Minuten und versuchen Sie es erneut.',
    rateLimitedNetwork: 'Zu viele Anfragen aus Ihrem Netzwerk. Bitte versuchen Sie es {{when}} erneut.',
    rateLimitedVerification:
      'Wir haben Ihnen bereits mehrere Bestätigungs-E-Mails gesendet. Sie können {{when}} eine weitere anfordern.',
    captcha:
      'Wir konnten nicht bestätigen, dass diese Anfrage von einer Person stammt. Laden Sie die Seite neu und versuchen Sie es erneut.',
  },
  mail: {
    linkHint: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:',
    footer: 'Diese E-Mail wurde von {{tenant}} gesendet.',
    activation: {
      subject: 'Aktivieren Sie Ihr Konto bei {{tenant}}',
      heading: 'Konto aktivieren',
      body: 'Bei {{tenant}} wurde ein Konto für Sie angelegt. Wählen Sie Ihr Passwort, um es zu aktivieren.',
      action: 'Konto aktivieren',
      expiry: 'Dieser Link ist {{days}} Tage lang gültig und kann einmal verwendet werden.',
      ignore: 'Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
    },
    reset: {
      subject: 'Setzen Sie Ihr Passwort für {{tenant}} zurück',
      heading: 'Passwort zurücksetzen',
      body: 'Wir haben eine Anfrage erhalten, das Passwort Ihres Kontos bei {{tenant}} zurückzusetzen.',
      action: 'Passwort zurücksetzen',
      expiry: 'Dieser Link ist {{minutes}} Minuten lang gültig und kann einmal verwendet werden.',
      ignore:
        'Falls Sie dies nicht angefordert haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt unverändert.',
    },
    verifyEmail: {
      subject: 'Bestätigen Sie Ihre E-Mail-Adresse für {{tenant}}',
      heading: 'E-Mail-Adresse bestätigen',
      body: 'Bitte bestätigen Sie, dass dies die E-Mail-Adresse Ihres Kontos bei {{tenant}} ist.',
      action: 'E-Mail-Adresse bestätigen',
      expiry: 'Dieser Link ist {{hours}} Stunden lang gültig und kann einmal verwendet werden.',
      ignore: 'Falls Sie dies nicht angefordert haben, können Sie diese E-Mail ignorieren.',
    },
    partnerLinksRemoved: {
      subject: 'Partner-Anmeldungen von Ihrem {{tenant}}-Konto entfernt',
      heading: 'Partner-Anmeldungen entfernt',
      body: 'Ihr {{tenant}}-Konto wurde über eine Partneranwendung erstellt oder verknüpft, bevor Sie es übernommen haben. Da Sie es nun übernommen haben, können sich diese Partner nicht mehr damit anmelden:',
      relink:
        'Wenn Sie einen dieser Partner selbst nutzen, melden Sie sich mit Ihrem Passwort an und verknüpfen Sie ihn in Ihrem Konto erneut.',
      action: 'Anmelden',
      notYou:
        'Wenn Sie gerade weder Ihr Passwort zurückgesetzt noch Ihre Adresse bestätigt haben, wenden Sie sich an Ihren Administrator.',
    },
  },
};
