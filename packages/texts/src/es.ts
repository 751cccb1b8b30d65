import { accountEs } from './account/es.ts';
import type { Texts } from './en.ts';
import { lifecycleEs } from './lifecycle/es.ts';
import { mfaEs } from './mfa/es.ts';
import { passkeysEs } from './passkeys/es.ts';

export const es: Texts = {
  common: {
    appName: 'Keycard',
    loading: 'Cargando…',
    next: 'Siguiente',
    back: 'Atrás',
    close: 'Cerrar',
    showPassword: 'Mostrar contraseña',
    hidePassword: 'Ocultar contraseña',
    required: 'Este campo es obligatorio',
    invalidEmail: 'Esta no parece una dirección de correo electrónico válida',
    networkError: 'Tenemos problemas para conectar con nuestros servidores. Inténtelo de nuevo.',
    contactSupport: 'Contactar con soporte',
    backToLogin: 'Volver al inicio de sesión',
    language: 'Idioma',
    logoAlt: 'Logotipo de {{name}}',
    errorSummary: 'Corrija el campo resaltado.',
  },
  titles: {
    login: 'Iniciar sesión',
    loginPassword: 'Introduzca su contraseña',
    accountCreated: 'Cuenta creada',
    logout: 'Cerrando sesión',
    authenticate: 'Iniciando sesión',
    authenticated: 'Sesión iniciada',
    authorize: 'Accediendo a su aplicación',
    notFound: 'Página no encontrada',
    unknownError: 'Se ha producido un error',
    loadFailed: 'La página no se cargó',
    accountDisabled: 'Cuenta desactivada',
    partnerSso: 'Inicio de sesión de socio',
    requestRefused: 'Solicitud de inicio de sesión rechazada',
    logoutRefused: 'Solicitud de cierre de sesión rechazada',
  },
  login: {
    email: {
      heading: 'Iniciar sesión',
      intro: 'Introduzca la dirección de correo electrónico de su cuenta.',
      label: 'Correo electrónico',
      remember: 'Recordar mi correo electrónico',
      submit: 'Siguiente',
    },
    password: {
      heading: 'Introduzca su contraseña',
      back: 'Volver al correo electrónico',
      change: 'Cambiar correo electrónico',
      signedInAs: 'Iniciando sesión como {{email}}',
      label: 'Contraseña',
      forgot: '¿Ha olvidado su contraseña?',
      submit: 'Iniciar sesión',
      trouble: '¿Problemas para iniciar sesión?',
    },
    signedIn: {
      notice: 'Ha iniciado sesión como {{email}}.',
      continue: 'Continuar',
      logOut: 'Cerrar sesión',
      other: 'Para usar otra cuenta, introduzca su dirección de correo electrónico a continuación.',
    },
    notices: {
      loggedOut: 'Se ha cerrado su sesión.',
      resetPassword: 'Se ha cambiado su contraseña. Inicie sesión con su nueva contraseña.',
      accountCreated: 'Se ha creado su cuenta. Inicie sesión para empezar.',
      reauthenticate: 'Por su seguridad, vuelva a introducir su contraseña.',
    },
    app: {
      back: 'Volver a {{app}}',
    },
    passkey: {
      signIn: 'Iniciar sesión con una llave de acceso',
      instead: 'Usar una llave de acceso',
      or: 'o',
      waiting: 'Esperando su llave de acceso…',
      errors: {
        cancelled:
          'No se ha usado ninguna llave de acceso. Inténtelo de nuevo o continúe con su dirección de correo electrónico.',
        failed:
          'Esta llave de acceso no ha podido iniciar su sesión. Pruebe con otra o continúe con su dirección de correo electrónico.',
        expired: 'La solicitud de la llave de acceso ha caducado. Inténtelo de nuevo.',
        unsupported:
          'Este navegador no puede usar una llave de acceso aquí. Continúe con su dirección de correo electrónico.',
        rateLimited: 'Demasiados intentos con llaves de acceso. Espere unos minutos y vuelva a intentarlo.',
        removed:
          'Esta llave de acceso ya no está registrada aquí; puede que se haya eliminado. Use otra o continúe con su dirección de correo electrónico.',
      },
    },
    errors: {
      invalidCredentials: 'Correo electrónico o contraseña no válidos. Inténtelo de nuevo.',
      /** After three failures in a row: the attempts left before the pause (the same with an account or without). */
      attemptsLeft: {
        one: 'Correo electrónico o contraseña no válidos. Tras {{count}} intento fallido más, el inicio de sesión con esta dirección se pausará durante un tiempo. También puede restablecer su contraseña.',
        many: 'Correo electrónico o contraseña no válidos. Tras {{count}} intentos fallidos más, el inicio de sesión con esta dirección se pausará durante un tiempo. También puede restablecer su contraseña.',
        other:
          'Correo electrónico o contraseña no válidos. Tras {{count}} intentos fallidos más, el inicio de sesión con esta dirección se pausará durante un tiempo. También puede restablecer su contraseña.',
      },
      busy: 'En este momento se están comprobando demasiados inicios de sesión. Inténtelo de nuevo en unos segundos.',
    },
    /** A refused attempt: the limit that refused it (docs/security.md), and when to try again. */
    limits: {
      address: 'Demasiados intentos desde su red. Inténtelo de nuevo {{when}}.',
      account:
        'Esta cuenta está bloqueada por su seguridad. Inténtelo de nuevo {{when}} o restablezca su contraseña.',
      ready: 'Ya puede volver a intentarlo.',
      reset: 'Restablecer la contraseña',
    },
  },
  authenticate: {
    loading: 'Iniciando sesión…',
  },
  authenticated: {
    loading: 'Accediendo a su aplicación…',
  },
  partnerSso: {
    loading: 'Iniciando su sesión…',
    emailUnverified: {
      heading: 'Esta dirección no está confirmada',
      body: 'La aplicación desde la que ha llegado no ha confirmado su dirección de correo electrónico, por lo que no podemos iniciar su sesión con ella. Confirme su dirección en esa aplicación y vuelva a intentarlo, o inicie sesión aquí con su contraseña.',
      signIn: 'Ir al inicio de sesión',
    },
    networkDialog: {
      heading: 'Problema de conexión',
      body: 'Tenemos problemas para conectar con nuestros servidores. Compruebe su conexión y vuelva a cargar para intentarlo de nuevo.',
      reload: 'Volver a cargar',
    },
  },
  logout: {
    loading: 'Cerrando sesión…',
    provider: {
      body: 'Estamos cerrando su sesión. Si no ocurre nada, seleccione «Cerrar sesión».',
      submit: 'Cerrar sesión',
    },
  },
  errors: {
    notFound: {
      heading: 'Página no encontrada',
      body: 'La página que busca no existe o se ha movido.',
    },
    unknown: {
      heading: 'Se ha producido un error',
      body: 'No hemos podido completar su solicitud. Vuelva a la página de inicio de sesión e inténtelo de nuevo.',
    },
    loadFailed: {
      heading: 'Esta página no se ha cargado',
      body: 'No se ha podido cargar una parte de esta página. Compruebe su conexión e inténtelo de nuevo.',
      retry: 'Reintentar',
    },
    accountDisabled: {
      heading: 'Su cuenta está bloqueada',
      body: 'Por su seguridad, el inicio de sesión en esta cuenta está bloqueado por el momento. Restablezca su contraseña o contacte con soporte para recuperar el acceso.',
      reset: 'Restablecer la contraseña',
    },
    provider: {
      next: 'Vuelva a la aplicación e inténtelo de nuevo. Si el problema continúa, póngase en contacto con el soporte de la aplicación e indique el código de error.',
      codeLabel: 'Código de error',
      reasons: {
        invalid_request: 'La solicitud de la aplicación está incompleta o tiene un formato incorrecto.',
        invalid_client: 'La aplicación no está registrada en este servicio de inicio de sesión.',
        invalid_redirect_uri:
          'La aplicación pidió devolverle a una dirección que no está registrada para ella.',
        unauthorized_client: 'La aplicación no tiene permiso para iniciar su sesión de esta manera.',
        invalid_scope: 'La aplicación solicitó un acceso que este servicio no concede.',
        unsupported_response_type: 'La aplicación solicitó un tipo de respuesta que este servicio no ofrece.',
        server_error:
          'El servicio de inicio de sesión no pudo completar la solicitud. Inténtelo de nuevo en un momento.',
        temporarily_unavailable:
          'El servicio de inicio de sesión no está disponible por un momento. Inténtelo de nuevo en unos instantes.',
        other: 'No se pudo completar la solicitud de la aplicación.',
      },
    },
  },
  lifecycle: lifecycleEs,
  mfa: mfaEs,
  passkeys: passkeysEs,
  account: accountEs,
};
