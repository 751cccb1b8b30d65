import type { SecurityMailTexts } from './en.ts';

export const securityMailDe: SecurityMailTexts = {
  passwordChanged: {
    subject: 'Ihr Passwort für {{tenant}} wurde geändert',
    heading: 'Ihr Passwort wurde geändert',
    body: 'Das Passwort Ihres {{tenant}}-Kontos wurde soeben geändert. Ihre anderen Sitzungen wurden abgemeldet.',
  },
  passkeyAdded: {
    subject: 'Ihrem {{tenant}}-Konto wurde ein Passkey hinzugefügt',
    heading: 'Ein Passkey wurde hinzugefügt',
    body: 'Mit dem Passkey „{{name}}“ kann man sich jetzt bei Ihrem {{tenant}}-Konto anmelden.',
  },
  passkeyRemoved: {
    subject: 'Ein Passkey wurde aus Ihrem {{tenant}}-Konto entfernt',
    heading: 'Ein Passkey wurde entfernt',
    body: 'Mit dem Passkey „{{name}}“ kann man sich nicht mehr bei Ihrem {{tenant}}-Konto anmelden.',
  },
  factorAdded: {
    subject: 'Ihrem {{tenant}}-Konto wurde ein Anmeldeschritt hinzugefügt',
    heading: 'Ein zweiter Anmeldeschritt wurde eingerichtet',
    body: 'Die Anmeldung bei Ihrem {{tenant}}-Konto verlangt jetzt einen zweiten Schritt: {{factor}}.',
  },
  factorRemoved: {
    subject: 'Ein Anmeldeschritt wurde aus Ihrem {{tenant}}-Konto entfernt',
    heading: 'Ein zweiter Anmeldeschritt wurde entfernt',
    body: 'Der zweite Anmeldeschritt „{{factor}}“ wurde aus Ihrem {{tenant}}-Konto entfernt.',
  },
  recoveryCodesRenewed: {
    subject: 'Neue Wiederherstellungscodes für Ihr {{tenant}}-Konto',
    heading: 'Neue Wiederherstellungscodes wurden erstellt',
    body: 'Für Ihr {{tenant}}-Konto wurden neue Wiederherstellungscodes erstellt. Die alten gelten nicht mehr.',
  },
  partnerLinked: {
    subject: '{{partner}} wurde mit Ihrem {{tenant}}-Konto verknüpft',
    heading: 'Ein Partner wurde verknüpft',
    body: '{{partner}} kann Sie jetzt bei Ihrem {{tenant}}-Konto anmelden.',
  },
  newBrowserSignIn: {
    subject: 'Neue Anmeldung bei Ihrem {{tenant}}-Konto',
    heading: 'Anmeldung in einem neuen Browser',
    body: 'Jemand hat sich in einem bisher unbekannten Browser bei Ihrem {{tenant}}-Konto angemeldet.',
  },
  factors: { authenticatorApp: 'Authenticator-App', phone: 'Telefon', mobileApp: 'Mobile App' },
  when: 'Wann',
  browser: 'Browser',
  browserOn: '{{browser}} unter {{os}}',
  address: 'Adresse',
  unknown: 'unbekannt',
  ifYou: 'Wenn Sie das waren, müssen Sie nichts weiter tun.',
  notYou:
    'Wenn Sie das nicht waren, setzen Sie jetzt Ihr Passwort zurück und prüfen Sie dann Ihr Konto: Jemand anderes kennt möglicherweise Ihr Passwort.',
  notYouAction: 'Das war ich nicht',
  accountAction: 'Konto prüfen',
  linkHint: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:',
  footer: 'Diese E-Mail wurde von {{tenant}} gesendet, weil sie die Sicherheit Ihres Kontos betrifft.',
};
