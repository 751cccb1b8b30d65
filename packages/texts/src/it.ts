import { accountIt } from './account/it.ts';
import type { Texts } from './en.ts';
import { lifecycleIt } from './lifecycle/it.ts';
import { mfaIt } from './mfa/it.ts';
import { passkeysIt } from './passkeys/it.ts';

export const it: Texts = {
  common: {
    appName: 'Keycard',
    loading: 'Caricamento…',
    next: 'Avanti',
    back: 'Indietro',
    close: 'Chiudi',
    showPassword: 'Mostra password',
    hidePassword: 'Nascondi password',
    required: 'Questo campo è obbligatorio',
    invalidEmail: 'Questo indirizzo e-mail non sembra valido',
    networkError: 'Non riusciamo a contattare i nostri server. La preghiamo di riprovare.',
    contactSupport: 'Contatta l’assistenza',
    backToLogin: 'Torna all’accesso',
    language: 'Lingua',
    logoAlt: 'Logo di {{name}}',
    errorSummary: 'La preghiamo di correggere il campo evidenziato.',
  },
  titles: {
    login: 'Accesso',
    loginPassword: 'Inserisca la password',
    accountCreated: 'Account creato',
    logout: 'Disconnessione in corso',
    authenticate: 'Accesso in corso',
    authenticated: 'Accesso effettuato',
    authorize: 'Reindirizzamento all’applicazione',
    notFound: 'Pagina non trovata',
    unknownError: 'Si è verificato un errore',
    loadFailed: 'Pagina non caricata',
    accountDisabled: 'Account disattivato',
    partnerSso: 'Accesso partner',
    requestRefused: 'Richiesta di accesso rifiutata',
    logoutRefused: 'Richiesta di disconnessione rifiutata',
  },
  login: {
    email: {
      heading: 'Accesso',
      intro: 'Inserisca l’indirizzo e-mail del suo account.',
      label: 'Indirizzo e-mail',
      remember: 'Ricorda il mio indirizzo e-mail',
      submit: 'Avanti',
    },
    password: {
      heading: 'Inserisca la password',
      back: 'Torna all’indirizzo e-mail',
      change: 'Modifica indirizzo e-mail',
      signedInAs: 'Accesso come {{email}}',
      label: 'Password',
      forgot: 'Password dimenticata?',
      submit: 'Accedi',
      trouble: 'Problemi di accesso?',
    },
    signedIn: {
      notice: 'Ha già effettuato l’accesso come {{email}}.',
      continue: 'Continua',
      logOut: 'Esci',
      other: 'Per usare un altro account, inserisca qui sotto il suo indirizzo e-mail.',
    },
    notices: {
      loggedOut: 'La disconnessione è stata effettuata.',
      resetPassword: 'La sua password è stata modificata. Acceda con la nuova password.',
      accountCreated: 'Il suo account è stato creato. Acceda per iniziare.',
      reauthenticate: 'Per la sua sicurezza, inserisca di nuovo la password.',
    },
    app: {
      back: 'Torna a {{app}}',
    },
    passkey: {
      signIn: 'Accedi con una passkey',
      instead: 'Usi invece una passkey',
      or: 'oppure',
      waiting: 'In attesa della sua passkey…',
      errors: {
        cancelled: 'Non è stata usata alcuna passkey. Riprovi oppure continui con il suo indirizzo e-mail.',
        failed:
          'Con questa passkey non è stato possibile accedere. Ne provi un’altra oppure continui con il suo indirizzo e-mail.',
        expired: 'La richiesta della passkey è scaduta. Riprovi.',
        unsupported: 'Questo browser non può usare una passkey qui. Continui con il suo indirizzo e-mail.',
        rateLimited: 'Troppi tentativi con una passkey. Attenda qualche minuto, poi riprovi.',
        removed:
          'Questa passkey non è più registrata qui; forse è stata rimossa. Ne usi un’altra oppure continui con il suo indirizzo e-mail.',
      },
    },
    errors: {
      invalidCredentials: 'Indirizzo e-mail o password non validi. Riprovi.',
      /** After three failures in a row: the attempts left before the pause (the same with an account or without). */
      attemptsLeft: {
        one: 'Indirizzo e-mail o password non validi. Dopo {{count}} altro tentativo non riuscito, l’accesso con questo indirizzo verrà sospeso per un po’. In alternativa può reimpostare la password.',
        many: 'Indirizzo e-mail o password non validi. Dopo altri {{count}} tentativi non riusciti, l’accesso con questo indirizzo verrà sospeso per un po’. In alternativa può reimpostare la password.',
        other:
          'Indirizzo e-mail o password non validi. Dopo altri {{count}} tentativi non riusciti, l’accesso con questo indirizzo verrà sospeso per un po’. In alternativa può reimpostare la password.',
      },
      busy: 'In questo momento ci sono troppi accessi in verifica. Riprovi tra qualche secondo.',
    },
    /** A refused attempt: the limit that refused it (docs/security.md), and when to try again. */
    limits: {
      address: 'Troppi tentativi dalla sua rete. Riprovi {{when}}.',
      account:
        'Questo account è bloccato per la sua sicurezza. Riprovi {{when}} oppure reimposti la password.',
      ready: 'Ora può riprovare.',
      reset: 'Reimposta la password',
    },
  },
  authenticate: {
    loading: 'Accesso in corso…',
  },
  authenticated: {
    loading: 'Reindirizzamento all’applicazione in corso…',
  },
  partnerSso: {
    loading: 'Accesso in corso…',
    emailUnverified: {
      heading: 'Questo indirizzo non è confermato',
      body: 'L’applicazione da cui provieni non ha confermato il tuo indirizzo e-mail, quindi non possiamo farti accedere con esso. Conferma il tuo indirizzo in quell’applicazione e riprova, oppure accedi qui con la tua password.',
      signIn: 'Vai all’accesso',
    },
    networkDialog: {
      heading: 'Problema di connessione',
      body: 'Non riusciamo a contattare i nostri server. Verifichi la connessione, quindi ricarichi per riprovare.',
      reload: 'Ricarica',
    },
  },
  logout: {
    loading: 'Disconnessione in corso…',
    provider: {
      body: 'Disconnessione in corso. Se non succede nulla, selezioni «Esci».',
      submit: 'Esci',
    },
  },
  errors: {
    notFound: {
      heading: 'Pagina non trovata',
      body: 'La pagina che sta cercando non esiste o è stata spostata.',
    },
    unknown: {
      heading: 'Si è verificato un errore',
      body: 'Non è stato possibile completare la sua richiesta. Torni alla pagina di accesso e riprovi.',
    },
    loadFailed: {
      heading: 'Questa pagina non è stata caricata',
      body: 'Non è stato possibile caricare una parte di questa pagina. Controlli la connessione e riprovi.',
      retry: 'Riprova',
    },
    accountDisabled: {
      heading: 'Il suo account è bloccato',
      body: 'Per la sua sicurezza, l’accesso a questo account è momentaneamente bloccato. Reimposti la password o contatti l’assistenza per ripristinare l’accesso.',
      reset: 'Reimposta la password',
    },
    provider: {
      next: 'Torni all’applicazione e riprovi. Se il problema persiste, contatti l’assistenza dell’applicazione e comunichi il codice di errore.',
      codeLabel: 'Codice di errore',
      reasons: {
        invalid_request: 'La richiesta dell’applicazione è incompleta o non valida.',
        invalid_client: 'L’applicazione non è registrata presso questo servizio di accesso.',
        invalid_redirect_uri:
          'L’applicazione ha chiesto di reindirizzarLa a un indirizzo che non è registrato per essa.',
        unauthorized_client: 'L’applicazione non è autorizzata a farLa accedere in questo modo.',
        invalid_scope: 'L’applicazione ha richiesto un accesso che questo servizio non concede.',
        unsupported_response_type:
          'L’applicazione ha richiesto un tipo di risposta che questo servizio non fornisce.',
        server_error:
          'Il servizio di accesso non è riuscito a completare la richiesta. Riprovi tra qualche istante.',
        temporarily_unavailable:
          'Il servizio di accesso è momentaneamente non disponibile. Riprovi tra qualche istante.',
        other: 'Non è stato possibile completare la richiesta dell’applicazione.',
      },
    },
  },
  lifecycle: lifecycleIt,
  mfa: mfaIt,
  passkeys: passkeysIt,
  account: accountIt,
};
