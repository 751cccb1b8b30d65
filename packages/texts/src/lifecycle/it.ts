import type { Texts } from '../en.ts';

export const lifecycleIt: Texts['lifecycle'] = {
  titles: {
    activate: 'Attivazione dell’account',
    register: 'Creazione dell’account',
    activateSent: 'E-mail di attivazione inviata',
    activateExpired: 'Link di attivazione scaduto',
    resetPassword: 'Reimpostazione della password',
    resetPasswordSent: 'E-mail di reimpostazione inviata',
    resetPasswordUpdate: 'Nuova password',
    verifyEmail: 'Verifica dell’indirizzo e-mail',
    verifyExpired: 'Link di verifica scaduto',
    passwordExpired: 'Password scaduta',
    passwordWillExpire: 'Password in scadenza',
  },
  passwordForm: {
    password: 'Nuova password',
    confirmPassword: 'Conferma la nuova password',
    hint: 'Utilizzi almeno 8 caratteri, con lettere maiuscole e minuscole e un numero.',
    secretQuestion: 'Domanda di sicurezza',
    chooseQuestion: 'Scelga una domanda',
    secretAnswer: 'Risposta di sicurezza',
    errors: {
      format: 'Deve contenere lettere maiuscole e minuscole, un numero ed essere lunga almeno 8 caratteri',
      mismatch: 'Le password non coincidono',
      history: 'La nuova password non può essere uguale a nessuna delle sue ultime quattro password.',
      leaked: 'Questa password compare in violazioni di dati note e non è sicura. Ne scelga un’altra.',
    },
  },
  secretQuestions: {
    motherMaidenName: 'Qual è il cognome da nubile di sua madre?',
    fatherMiddleName: 'Qual è il secondo nome di suo padre?',
    townWhereBorn: 'Qual è la sua città natale?',
    firstOverseasTrip: 'Qual è stata la meta del suo primo viaggio all’estero?',
    firstSchool: 'Come si chiamava la sua prima scuola?',
    firstPetName: 'Come si chiamava il suo primo animale domestico?',
  },
  activate: {
    checking: 'Verifica del link di attivazione in corso…',
    heading: 'Attivi il suo account',
    intro:
      'Scelga una password e una domanda di sicurezza per {{email}}. Se ci chiama per assistenza, le porremo questa domanda per verificare che sia proprio lei. Non le chiederemo mai la password.',
    submit: 'Attiva account',
  },
  register: {
    checking: 'Verifica del link di registrazione in corso…',
    heading: 'Crei il suo account',
    intro: 'Scelga una password e una domanda di sicurezza per {{email}}.',
    submit: 'Crea account',
    signingIn: 'Accesso in corso…',
    invalid: {
      heading: 'Questo link di registrazione non è valido',
      body: 'Il link potrebbe essere scaduto o essere già stato utilizzato. Ne chieda uno nuovo alla persona che glielo ha inviato.',
    },
  },
  activateSent: {
    heading: 'Controlli la sua casella di posta',
    body: {
      one: 'Se il suo account è in attesa di attivazione, abbiamo inviato un nuovo link di attivazione al suo indirizzo e-mail. Il link è valido per {{count}} giorno.',
      many: 'Se il suo account è in attesa di attivazione, abbiamo inviato un nuovo link di attivazione al suo indirizzo e-mail. Il link è valido per {{count}} di giorni.',
      other:
        'Se il suo account è in attesa di attivazione, abbiamo inviato un nuovo link di attivazione al suo indirizzo e-mail. Il link è valido per {{count}} giorni.',
    },
    help: 'Non ha ricevuto l’e-mail? Controlli la cartella della posta indesiderata o contatti l’assistenza.',
  },
  activateExpired: {
    heading: 'Questo link di attivazione è scaduto',
    body: 'Inserisca il suo indirizzo e-mail e le invieremo un nuovo link di attivazione.',
    email: 'Indirizzo e-mail',
    submit: 'Invia un nuovo link',
  },
  resetRequest: {
    heading: 'Reimposti la password',
    intro: 'Inserisca l’indirizzo e-mail del suo account e le invieremo un link per reimpostare la password.',
    email: 'Indirizzo e-mail',
    submit: 'Invia link di reimpostazione',
    tokenExpired: 'Il link per reimpostare la password è scaduto. Ne richieda uno nuovo.',
  },
  resetSent: {
    heading: 'Controlli la sua casella di posta',
    body: {
      one: 'Se esiste un account per {{email}}, abbiamo inviato a questo indirizzo un link per reimpostare la password. Il link è valido per {{count}} minuto.',
      many: 'Se esiste un account per {{email}}, abbiamo inviato a questo indirizzo un link per reimpostare la password. Il link è valido per {{count}} di minuti.',
      other:
        'Se esiste un account per {{email}}, abbiamo inviato a questo indirizzo un link per reimpostare la password. Il link è valido per {{count}} minuti.',
    },
    bodyWithoutEmail: {
      one: 'Se esiste un account per l’indirizzo inserito, abbiamo inviato a questo indirizzo un link per reimpostare la password. Il link è valido per {{count}} minuto.',
      many: 'Se esiste un account per l’indirizzo inserito, abbiamo inviato a questo indirizzo un link per reimpostare la password. Il link è valido per {{count}} di minuti.',
      other:
        'Se esiste un account per l’indirizzo inserito, abbiamo inviato a questo indirizzo un link per reimpostare la password. Il link è valido per {{count}} minuti.',
    },
    resend: 'Invia di nuovo l’e-mail',
    resent: 'Abbiamo inviato di nuovo l’e-mail.',
    trouble: 'Problemi di accesso?',
  },
  resetUpdate: {
    checking: 'Verifica del link in corso…',
    heading: 'Imposti una nuova password',
    intro: 'Scelga una nuova password per {{email}}.',
    submit: 'Cambia password',
  },
  verifyEmail: {
    checking: 'Verifica del link di conferma in corso…',
    heading: 'Verifichi il suo indirizzo e-mail',
    intro: 'Inserisca il suo indirizzo e-mail per confermare che le appartiene.',
    email: 'Indirizzo e-mail',
    submit: 'Verifica indirizzo e-mail',
    mismatch: 'Questo indirizzo e-mail non corrisponde ai nostri dati. La preghiamo di riprovare.',
    success: 'Il suo indirizzo e-mail è stato verificato. Reindirizzamento in corso…',
  },
  verifyExpired: {
    heading: 'Questo link di verifica è scaduto',
    body: {
      one: 'I link di verifica sono validi per {{count}} ora e possono essere usati una sola volta. Acceda di nuovo per richiederne uno nuovo.',
      many: 'I link di verifica sono validi per {{count}} di ore e possono essere usati una sola volta. Acceda di nuovo per richiederne uno nuovo.',
      other:
        'I link di verifica sono validi per {{count}} ore e possono essere usati una sola volta. Acceda di nuovo per richiederne uno nuovo.',
    },
  },
  passwordExpired: {
    heading: 'La sua password è scaduta',
  },
  passwordWillExpire: {
    heading: 'La sua password scadrà a breve',
    today: 'La sua password scade oggi.',
    tomorrow: 'La sua password scade domani.',
    inDays: {
      one: 'La sua password scade tra {{count}} giorno.',
      many: 'La sua password scade tra {{count}} di giorni.',
      other: 'La sua password scade tra {{count}} giorni.',
    },
    resetLater: 'Reimposta più tardi',
  },
  verificationPrompt: {
    heading: 'Verifichi il suo indirizzo e-mail',
    body: {
      one: 'Prima di continuare, confermi che {{email}} è il suo indirizzo e-mail. Le invieremo un link di verifica valido per {{count}} ora.',
      many: 'Prima di continuare, confermi che {{email}} è il suo indirizzo e-mail. Le invieremo un link di verifica valido per {{count}} di ore.',
      other:
        'Prima di continuare, confermi che {{email}} è il suo indirizzo e-mail. Le invieremo un link di verifica valido per {{count}} ore.',
    },
    send: 'Invia e-mail di verifica',
    sentHeading: 'Controlli la sua casella di posta',
    sentBody: 'Abbiamo inviato un link di verifica a {{email}}. Lo apra per continuare.',
    notReceived: 'Non ho ricevuto l’e-mail',
    logout: 'Esci',
  },
  sessionDialog: {
    heading: 'Esca prima dall’account',
    body: 'Ha già effettuato l’accesso. Per utilizzare questo link, deve prima disconnettersi.',
    confirm: 'Esci',
  },
  errors: {
    rateLimited: 'Ha effettuato troppe richieste. Attenda qualche minuto e riprovi.',
    rateLimitedNetwork: 'Troppe richieste dalla sua rete. Riprovi {{when}}.',
    rateLimitedVerification:
      "Le abbiamo già inviato diverse e-mail di verifica. Potrà richiederne un'altra {{when}}.",
    captcha:
      'Non è stato possibile confermare che questa richiesta provenga da una persona. Ricarichi la pagina e riprovi.',
  },
  mail: {
    linkHint: 'Se il pulsante non funziona, copi questo link nel browser:',
    footer: 'Questa e-mail è stata inviata da {{tenant}}.',
    activation: {
      subject: 'Attivi il suo account {{tenant}}',
      heading: 'Attivi il suo account',
      body: 'È stato creato un account per lei presso {{tenant}}. Scelga la sua password per attivarlo.',
      action: 'Attiva account',
      expiry: 'Questo link è valido per {{days}} giorni e può essere usato una sola volta.',
      ignore: 'Se non si aspettava questo invito, può ignorare questa e-mail.',
    },
    reset: {
      subject: 'Reimposti la password di {{tenant}}',
      heading: 'Reimposti la password',
      body: 'Abbiamo ricevuto una richiesta di reimpostazione della password del suo account {{tenant}}.',
      action: 'Reimposta password',
      expiry: 'Questo link è valido per {{minutes}} minuti e può essere usato una sola volta.',
      ignore:
        'Se non ha richiesto questa operazione, può ignorare questa e-mail: la sua password resterà invariata.',
    },
    verifyEmail: {
      subject: 'Verifichi il suo indirizzo e-mail per {{tenant}}',
      heading: 'Verifichi il suo indirizzo e-mail',
      body: 'Confermi che questo è l’indirizzo e-mail del suo account {{tenant}}.',
      action: 'Verifica indirizzo e-mail',
      expiry: 'Questo link è valido per {{hours}} ore e può essere usato una sola volta.',
      ignore: 'Se non ha richiesto questa operazione, può ignorare questa e-mail.',
    },
    partnerLinksRemoved: {
      subject: 'Accessi dei partner rimossi dal tuo account {{tenant}}',
      heading: 'Accessi dei partner rimossi',
      body: 'Il tuo account {{tenant}} è stato creato o collegato tramite l’applicazione di un partner prima che tu ne prendessi possesso. Ora che lo hai fatto, questi partner non possono più accedervi:',
      relink:
        'Se usi tu stesso uno di questi partner, accedi con la tua password e collegalo di nuovo dal tuo account.',
      action: 'Accedi',
      notYou:
        'Se non hai appena reimpostato la password o verificato il tuo indirizzo, contatta il tuo amministratore.',
    },
  },
};
