import { accountDe } from './account/de.ts';
import type { Texts } from './en.ts';
import { lifecycleDe } from './lifecycle/de.ts';
import { mfaDe } from './mfa/de.ts';
import { passkeysDe } from './passkeys/de.ts';

export const de: Texts = {
  common: {
    appName: 'Keycard',
    loading: 'Wird geladen…',
    next: 'Weiter',
    back: 'Zurück',
    close: 'Schließen',
    showPassword: 'Passwort anzeigen',
    hidePassword: 'Passwort verbergen',
    required: 'Dieses Feld ist erforderlich',
    invalidEmail: 'Dies scheint keine gültige E-Mail-Adresse zu sein',
    networkError: 'Wir können unsere Server derzeit nicht erreichen. Bitte versuchen Sie es erneut.',
    contactSupport: 'Support kontaktieren',
    backToLogin: 'Zurück zur Anmeldung',
    language: 'Sprache',
    logoAlt: 'Logo von {{name}}',
    errorSummary: 'Bitte korrigieren Sie das markierte Feld.',
  },
  titles: {
    login: 'Anmelden',
    loginPassword: 'Passwort eingeben',
    accountCreated: 'Konto erstellt',
    logout: 'Abmeldung läuft',
    authenticate: 'Anmeldung läuft',
    authenticated: 'Angemeldet',
    authorize: 'Weiter zu Ihrer Anwendung',
    notFound: 'Seite nicht gefunden',
    unknownError: 'Ein Fehler ist aufgetreten',
    loadFailed: 'Seite nicht geladen',
    accountDisabled: 'Konto deaktiviert',
    partnerSso: 'Partner-Anmeldung',
    requestRefused: 'Anmeldeanfrage abgelehnt',
    logoutRefused: 'Abmeldeanfrage abgelehnt',
  },
  login: {
    email: {
      heading: 'Anmelden',
      intro: 'Geben Sie die E-Mail-Adresse Ihres Kontos ein.',
      label: 'E-Mail-Adresse',
      remember: 'E-Mail-Adresse merken',
      submit: 'Weiter',
    },
    password: {
      heading: 'Passwort eingeben',
      back: 'Zurück zur E-Mail-Adresse',
      change: 'E-Mail-Adresse ändern',
      signedInAs: 'Anmeldung als {{email}}',
      label: 'Passwort',
      forgot: 'Passwort vergessen?',
      submit: 'Anmelden',
      trouble: 'Probleme bei der Anmeldung?',
    },
    signedIn: {
      notice: 'Sie sind als {{email}} angemeldet.',
      continue: 'Weiter',
      logOut: 'Abmelden',
      other: 'Um ein anderes Konto zu verwenden, geben Sie unten dessen E-Mail-Adresse ein.',
    },
    notices: {
      loggedOut: 'Sie wurden abgemeldet.',
      resetPassword: 'Ihr Passwort wurde geändert. Melden Sie sich mit Ihrem neuen Passwort an.',
      accountCreated: 'Ihr Konto wurde erstellt. Melden Sie sich an, um loszulegen.',
      reauthenticate: 'Bitte geben Sie zu Ihrer Sicherheit Ihr Passwort erneut ein.',
    },
    app: {
      back: 'Zurück zu {{app}}',
    },
    passkey: {
      signIn: 'Mit einem Passkey anmelden',
      instead: 'Stattdessen einen Passkey verwenden',
      or: 'oder',
      waiting: 'Warten auf Ihren Passkey…',
      errors: {
        cancelled:
          'Es wurde kein Passkey verwendet. Versuchen Sie es erneut oder fahren Sie mit Ihrer E-Mail-Adresse fort.',
        failed:
          'Mit diesem Passkey konnten Sie nicht angemeldet werden. Versuchen Sie einen anderen oder fahren Sie mit Ihrer E-Mail-Adresse fort.',
        expired: 'Die Passkey-Anfrage ist abgelaufen. Bitte versuchen Sie es erneut.',
        unsupported:
          'Dieser Browser kann hier keinen Passkey verwenden. Fahren Sie mit Ihrer E-Mail-Adresse fort.',
        rateLimited: 'Zu viele Passkey-Versuche. Warten Sie einige Minuten und versuchen Sie es dann erneut.',
        removed:
          'Dieser Passkey ist hier nicht mehr registriert; vielleicht wurde er entfernt. Verwenden Sie einen anderen oder fahren Sie mit Ihrer E-Mail-Adresse fort.',
      },
    },
    errors: {
      invalidCredentials: 'E-Mail-Adresse oder Passwort ist ungültig. Bitte versuchen Sie es erneut.',
      /** After three failures in a row: the attempts left before the pause (the same with an account or without). */
      attemptsLeft: {
        one: 'E-Mail-Adresse oder Passwort ist ungültig. Nach {{count}} weiteren Fehlversuch wird die Anmeldung mit dieser Adresse für eine Weile pausiert. Sie können stattdessen Ihr Passwort zurücksetzen.',
        other:
          'E-Mail-Adresse oder Passwort ist ungültig. Nach {{count}} weiteren Fehlversuchen wird die Anmeldung mit dieser Adresse für eine Weile pausiert. Sie können stattdessen Ihr Passwort zurücksetzen.',
      },
      busy: 'Gerade werden sehr viele Anmeldungen geprüft. Bitte versuchen Sie es in einigen Sekunden erneut.',
    },
    /** A refused attempt: the limit that refused it (docs/security.md), and when to try again. */
    limits: {
      address: 'Zu viele Anmeldeversuche aus Ihrem Netzwerk. Versuchen Sie es {{when}} erneut.',
      account:
        'Dieses Konto ist zu Ihrer Sicherheit gesperrt. Versuchen Sie es {{when}} erneut oder setzen Sie Ihr Passwort zurück.',
      ready: 'Sie können es jetzt erneut versuchen.',
      reset: 'Passwort zurücksetzen',
    },
  },
  authenticate: {
    loading: 'Sie werden angemeldet…',
  },
  authenticated: {
    loading: 'Sie werden zu Ihrer Anwendung weitergeleitet…',
  },
  partnerSso: {
    loading: 'Sie werden angemeldet…',
    emailUnverified: {
      heading: 'Diese Adresse ist nicht bestätigt',
      body: 'Die Anwendung, von der Sie kommen, hat Ihre E-Mail-Adresse nicht bestätigt, daher können wir Sie damit nicht anmelden. Bestätigen Sie Ihre Adresse bei dieser Anwendung und versuchen Sie es erneut, oder melden Sie sich hier mit Ihrem Passwort an.',
      signIn: 'Zur Anmeldung',
    },
    networkDialog: {
      heading: 'Verbindungsproblem',
      body: 'Wir können unsere Server derzeit nicht erreichen. Prüfen Sie Ihre Verbindung und laden Sie die Seite dann neu, um es erneut zu versuchen.',
      reload: 'Neu laden',
    },
  },
  logout: {
    loading: 'Sie werden abgemeldet…',
    provider: {
      body: 'Sie werden abgemeldet. Falls nichts passiert, wählen Sie „Abmelden“.',
      submit: 'Abmelden',
    },
  },
  errors: {
    notFound: {
      heading: 'Seite nicht gefunden',
      body: 'Die gesuchte Seite existiert nicht oder wurde verschoben.',
    },
    unknown: {
      heading: 'Ein Fehler ist aufgetreten',
      body: 'Ihre Anfrage konnte nicht abgeschlossen werden. Bitte kehren Sie zur Anmeldeseite zurück und versuchen Sie es erneut.',
    },
    loadFailed: {
      heading: 'Diese Seite wurde nicht geladen',
      body: 'Ein Teil dieser Seite konnte nicht geladen werden. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
      retry: 'Erneut versuchen',
    },
    accountDisabled: {
      heading: 'Ihr Konto ist gesperrt',
      body: 'Zu Ihrer Sicherheit ist die Anmeldung bei diesem Konto vorerst gesperrt. Setzen Sie Ihr Passwort zurück oder wenden Sie sich an den Support, um wieder Zugriff zu erhalten.',
      reset: 'Passwort zurücksetzen',
    },
    provider: {
      next: 'Kehren Sie zur Anwendung zurück und versuchen Sie es erneut. Wenn das Problem bestehen bleibt, wenden Sie sich an den Support der Anwendung und nennen Sie den Fehlercode.',
      codeLabel: 'Fehlercode',
      reasons: {
        invalid_request: 'Die Anfrage der Anwendung ist unvollständig oder fehlerhaft.',
        invalid_client: 'Die Anwendung ist bei diesem Anmeldedienst nicht registriert.',
        invalid_redirect_uri:
          'Die Anwendung wollte Sie an eine Adresse zurückleiten, die für sie nicht registriert ist.',
        unauthorized_client: 'Die Anwendung darf Sie auf diese Weise nicht anmelden.',
        invalid_scope: 'Die Anwendung hat Zugriffsrechte angefordert, die dieser Dienst nicht gewährt.',
        unsupported_response_type:
          'Die Anwendung hat eine Antwortart angefordert, die dieser Dienst nicht anbietet.',
        server_error:
          'Der Anmeldedienst konnte die Anfrage nicht abschließen. Versuchen Sie es gleich noch einmal.',
        temporarily_unavailable:
          'Der Anmeldedienst ist kurzzeitig nicht erreichbar. Versuchen Sie es gleich noch einmal.',
        other: 'Die Anfrage der Anwendung konnte nicht abgeschlossen werden.',
      },
    },
  },
  lifecycle: lifecycleDe,
  mfa: mfaDe,
  passkeys: passkeysDe,
  account: accountDe,
};
