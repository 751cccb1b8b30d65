import type { Texts } from '../en.ts';

export const passkeysIt: Texts['passkeys'] = {
  titles: {
    offer: 'Acceda più velocemente la prossima volta',
    stepUp: 'Confermi con una passkey',
    created: 'Passkey creata',
  },
  offer: {
    heading: 'Acceda più velocemente la prossima volta con una passkey',
    body: 'Con una passkey accede con l’impronta digitale, il volto o il blocco schermo invece della password. Resta sul suo dispositivo o nel suo gestore di password e funziona solo su questo sito, quindi nessuno può indurla a cederla.',
    create: 'Crea una passkey',
    notNow: 'Non ora',
    created: 'La sua passkey è pronta. La prossima volta la scelga quando accede.',
    continue: 'Continua',
  },
  stepUp: {
    heading: 'Confermi con una passkey',
    body: '{{app}} le chiede di confermare con una passkey o una chiave di sicurezza. La password non basta per questo.',
    bodyNoApp:
      'Questa applicazione le chiede di confermare con una passkey o una chiave di sicurezza. La password non basta per questo.',
    confirm: 'Conferma con una passkey',
    none: 'Il suo account non ha ancora una passkey né una chiave di sicurezza per questo sito. Ne aggiunga una nella pagina del suo account, poi riprovi dall’applicazione.',
    account: 'Vai alla pagina del suo account',
  },
  mfa: {
    heading: 'Confermi la sua identità',
    intro: 'Usi la passkey o la chiave di sicurezza che ha aggiunto al suo account.',
    elsewhere:
      'La sua passkey o chiave di sicurezza funziona solo sul sito in cui l’ha creata: {{domains}}. Acceda lì per usarla.',
    option: 'Usi la sua passkey o chiave di sicurezza',
  },
  waiting: 'In attesa della sua passkey…',
  errors: {
    cancelled: 'Non è stata usata alcuna passkey. Riprovi quando è pronto.',
    exists: 'Questo dispositivo contiene già una passkey per il suo account.',
    limit:
      'Il suo account ha già il numero massimo di passkey. Ne rimuova una nella pagina del suo account per aggiungerne un’altra.',
    failed:
      'Non è stato possibile verificare questa passkey o chiave di sicurezza. Riprovi oppure ne usi un’altra.',
    expired: 'La richiesta è scaduta. Riprovi.',
    unsupported: 'Questo browser o dispositivo non può usare una passkey qui.',
    rateLimited: 'Troppi tentativi con una passkey. Attenda qualche minuto, poi riprovi.',
    notFound: 'Il suo account non ha una passkey né una chiave di sicurezza che funzioni su questo sito.',
    signInAgain:
      'Il suo accesso non è più abbastanza recente per aggiungere una passkey. Continui e ne aggiunga una più tardi nella pagina del suo account.',
    unknown: 'Si è verificato un errore. Riprovi.',
  },
};
