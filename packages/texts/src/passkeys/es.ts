import type { Texts } from '../en.ts';

export const passkeysEs: Texts['passkeys'] = {
  titles: {
    offer: 'Inicie sesión más rápido la próxima vez',
    stepUp: 'Confirmar con una llave de acceso',
    created: 'Llave de acceso creada',
  },
  offer: {
    heading: 'Inicie sesión más rápido la próxima vez con una llave de acceso',
    body: 'Con una llave de acceso, inicia sesión con su huella, su cara o el bloqueo de pantalla en lugar de su contraseña. Se guarda en su dispositivo o en su gestor de contraseñas y solo funciona en este sitio web, así que nadie puede engañarle para que la entregue.',
    create: 'Crear una llave de acceso',
    notNow: 'Ahora no',
    created: 'Su llave de acceso está lista. La próxima vez, elíjala al iniciar sesión.',
    continue: 'Continuar',
  },
  stepUp: {
    heading: 'Confirmar con una llave de acceso',
    body: '{{app}} le pide que confirme con una llave de acceso o una llave de seguridad. Su contraseña no sirve para esto.',
    bodyNoApp:
      'Esta aplicación le pide que confirme con una llave de acceso o una llave de seguridad. Su contraseña no sirve para esto.',
    confirm: 'Confirmar con una llave de acceso',
    none: 'Su cuenta aún no tiene ninguna llave de acceso ni llave de seguridad para este sitio web. Añada una en la página de su cuenta y vuelva a intentarlo desde la aplicación.',
    account: 'Ir a la página de su cuenta',
  },
  mfa: {
    heading: 'Confirme que es usted',
    intro: 'Use la llave de acceso o la llave de seguridad que añadió a su cuenta.',
    elsewhere:
      'Su llave de acceso o llave de seguridad solo funciona en el sitio web donde la creó: {{domains}}. Inicie sesión allí para usarla.',
    option: 'Usar su llave de acceso o llave de seguridad',
  },
  waiting: 'Esperando su llave de acceso…',
  errors: {
    cancelled: 'No se ha usado ninguna llave de acceso. Vuelva a intentarlo cuando esté listo.',
    exists: 'Este dispositivo ya tiene una llave de acceso para su cuenta.',
    limit:
      'Su cuenta ya tiene el número máximo de llaves de acceso. Elimine una en la página de su cuenta para añadir otra.',
    failed:
      'No se ha podido verificar esta llave de acceso o llave de seguridad. Vuelva a intentarlo o use otra.',
    expired: 'La solicitud ha caducado. Inténtelo de nuevo.',
    unsupported: 'Este navegador o dispositivo no puede usar una llave de acceso aquí.',
    rateLimited: 'Demasiados intentos con llaves de acceso. Espere unos minutos y vuelva a intentarlo.',
    notFound:
      'Su cuenta no tiene ninguna llave de acceso ni llave de seguridad que funcione en este sitio web.',
    signInAgain:
      'Su inicio de sesión ya no es lo bastante reciente para añadir una llave de acceso. Continúe y añádala más tarde en la página de su cuenta.',
    unknown: 'Se ha producido un error. Inténtelo de nuevo.',
  },
};
