import type { SecurityMailTexts } from './en.ts';

export const securityMailIt: SecurityMailTexts = {
  passwordChanged: {
    subject: 'La password di {{tenant}} è stata cambiata',
    heading: 'La password è stata cambiata',
    body: 'La password del suo account {{tenant}} è appena stata cambiata. Le altre sessioni sono state chiuse.',
  },
  passkeyAdded: {
    subject: 'Una passkey è stata aggiunta al suo account {{tenant}}',
    heading: 'È stata aggiunta una passkey',
    body: 'Con la passkey «{{name}}» ora si può accedere al suo account {{tenant}}.',
  },
  passkeyRemoved: {
    subject: 'Una passkey è stata rimossa dal suo account {{tenant}}',
    heading: 'È stata rimossa una passkey',
    body: 'Con la passkey «{{name}}» non si può più accedere al suo account {{tenant}}.',
  },
  factorAdded: {
    subject: 'Un passaggio di accesso è stato aggiunto al suo account {{tenant}}',
    heading: 'È stato configurato un secondo passaggio di accesso',
    body: 'L’accesso al suo account {{tenant}} ora richiede un secondo passaggio: {{factor}}.',
  },
  factorRemoved: {
    subject: 'Un passaggio di accesso è stato rimosso dal suo account {{tenant}}',
    heading: 'È stato rimosso un secondo passaggio di accesso',
    body: 'Il secondo passaggio di accesso «{{factor}}» è stato rimosso dal suo account {{tenant}}.',
  },
  recoveryCodesRenewed: {
    subject: 'Nuovi codici di recupero per il suo account {{tenant}}',
    heading: 'Sono stati creati nuovi codici di recupero',
    body: 'Sono stati creati nuovi codici di recupero per il suo account {{tenant}}. Quelli vecchi non funzionano più.',
  },
  partnerLinked: {
    subject: '{{partner}} è stato collegato al suo account {{tenant}}',
    heading: 'È stato collegato un partner',
    body: '{{partner}} ora può farla accedere al suo account {{tenant}}.',
  },
  newBrowserSignIn: {
    subject: 'Nuovo accesso al suo account {{tenant}}',
    heading: 'Accesso da un nuovo browser',
    body: 'È stato effettuato l’accesso al suo account {{tenant}} da un browser mai visto prima.',
  },
  factors: { authenticatorApp: 'app di autenticazione', phone: 'telefono', mobileApp: 'app mobile' },
  when: 'Quando',
  browser: 'Browser',
  browserOn: '{{browser}} su {{os}}',
  address: 'Indirizzo',
  unknown: 'sconosciuto',
  ifYou: 'Se è stato lei, non deve fare altro.',
  notYou:
    'Se non è stato lei, reimposti subito la password e poi controlli il suo account: qualcun altro potrebbe conoscere la sua password.',
  notYouAction: 'Non ero io',
  accountAction: 'Controlli il suo account',
  linkHint: 'Se il pulsante non funziona, copi questo link nel browser:',
  footer: 'Questa e-mail è stata inviata da {{tenant}} perché riguarda la sicurezza del suo account.',
};
