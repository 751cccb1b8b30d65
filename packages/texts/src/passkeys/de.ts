import type { Texts } from '../en.ts';

export const passkeysDe: Texts['passkeys'] = {
  titles: {
    offer: 'Beim nächsten Mal schneller anmelden',
    stepUp: 'Mit einem Passkey bestätigen',
    created: 'Passkey erstellt',
  },
  offer: {
    heading: 'Melden Sie sich beim nächsten Mal schneller mit einem Passkey an',
    body: 'Mit einem Passkey melden Sie sich per Fingerabdruck, Gesichtserkennung oder Bildschirmsperre an statt mit Ihrem Passwort. Er bleibt auf Ihrem Gerät oder in Ihrem Passwort-Manager und funktioniert nur auf dieser Website, sodass niemand ihn Ihnen entlocken kann.',
    create: 'Passkey erstellen',
    notNow: 'Jetzt nicht',
    created: 'Ihr Passkey ist bereit. Wählen Sie ihn beim nächsten Anmelden aus.',
    continue: 'Weiter',
  },
  stepUp: {
    heading: 'Mit einem Passkey bestätigen',
    body: '{{app}} bittet Sie, sich mit einem Passkey oder Sicherheitsschlüssel zu bestätigen. Ihr Passwort reicht dafür nicht aus.',
    bodyNoApp:
      'Diese Anwendung bittet Sie, sich mit einem Passkey oder Sicherheitsschlüssel zu bestätigen. Ihr Passwort reicht dafür nicht aus.',
    confirm: 'Mit einem Passkey bestätigen',
    none: 'Ihr Konto hat für diese Website noch keinen Passkey und keinen Sicherheitsschlüssel. Fügen Sie auf Ihrer Kontoseite einen hinzu und versuchen Sie es dann erneut aus der Anwendung.',
    account: 'Zur Kontoseite',
  },
  mfa: {
    heading: 'Bestätigen Sie, dass Sie es sind',
    intro: 'Verwenden Sie den Passkey oder Sicherheitsschlüssel, den Sie Ihrem Konto hinzugefügt haben.',
    elsewhere:
      'Ihr Passkey oder Sicherheitsschlüssel funktioniert nur auf der Website, auf der Sie ihn erstellt haben: {{domains}}. Melden Sie sich dort an, um ihn zu verwenden.',
    option: 'Passkey oder Sicherheitsschlüssel verwenden',
  },
  waiting: 'Warten auf Ihren Passkey…',
  errors: {
    cancelled: 'Es wurde kein Passkey verwendet. Versuchen Sie es erneut, wenn Sie bereit sind.',
    exists: 'Dieses Gerät enthält bereits einen Passkey für Ihr Konto.',
    limit:
      'Ihr Konto hat bereits die höchstmögliche Zahl an Passkeys. Entfernen Sie einen auf Ihrer Kontoseite, um einen weiteren hinzuzufügen.',
    failed:
      'Dieser Passkey oder Sicherheitsschlüssel konnte nicht geprüft werden. Versuchen Sie es erneut oder verwenden Sie einen anderen.',
    expired: 'Die Anfrage ist abgelaufen. Bitte versuchen Sie es erneut.',
    unsupported: 'Dieser Browser oder dieses Gerät kann hier keinen Passkey verwenden.',
    rateLimited: 'Zu viele Passkey-Versuche. Warten Sie einige Minuten und versuchen Sie es dann erneut.',
    notFound:
      'Ihr Konto hat keinen Passkey und keinen Sicherheitsschlüssel, der auf dieser Website funktioniert.',
    signInAgain:
      'Ihre Anmeldung liegt zu lange zurück, um einen Passkey hinzuzufügen. Fahren Sie fort und fügen Sie später auf Ihrer Kontoseite einen hinzu.',
    unknown: 'Ein Fehler ist aufgetreten. Bitte versuchen Sie es erneut.',
  },
};
