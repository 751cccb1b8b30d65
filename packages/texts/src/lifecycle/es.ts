import type { Texts } from '../en.ts';

export const lifecycleEs: Texts['lifecycle'] = {
  titles: {
    activate: 'Activar su cuenta',
    register: 'Crear su cuenta',
    activateSent: 'Correo de activación enviado',
    activateExpired: 'Enlace de activación caducado',
    resetPassword: 'Restablecer su contraseña',
    resetPasswordSent: 'Correo de restablecimiento enviado',
    resetPasswordUpdate: 'Establecer una nueva contraseña',
    verifyEmail: 'Verificar su correo electrónico',
    verifyExpired: 'Enlace de verificación caducado',
    passwordExpired: 'Contraseña caducada',
    passwordWillExpire: 'Su contraseña caducará pronto',
  },
  passwordForm: {
    password: 'Nueva contraseña',
    confirmPassword: 'Confirmar nueva contraseña',
    hint: 'Utilice al menos 8 caracteres con mayúsculas, minúsculas y un número.',
    secretQuestion: 'Pregunta de seguridad',
    chooseQuestion: 'Elija una pregunta',
    secretAnswer: 'Respuesta de seguridad',
    errors: {
      format: 'Debe contener letras mayúsculas y minúsculas, un número y tener al menos 8 caracteres',
      mismatch: 'Las contraseñas no coinciden',
      history: 'Su nueva contraseña no puede ser igual a ninguna de sus cuatro últimas contraseñas.',
      leaked: 'Esta contraseña aparece en filtraciones de datos conocidas y no es segura. Elija otra.',
    },
  },
  secretQuestions: {
    motherMaidenName: '¿Cuál es el apellido de soltera de su madre?',
    fatherMiddleName: '¿Cuál es el segundo nombre de su padre?',
    townWhereBorn: '¿En qué ciudad nació?',
    firstOverseasTrip: '¿Adónde fue en su primer viaje al extranjero?',
    firstSchool: '¿Cómo se llamaba su primera escuela?',
    firstPetName: '¿Cómo se llamaba su primera mascota?',
  },
  activate: {
    checking: 'Comprobando su enlace de activación…',
    heading: 'Activar su cuenta',
    intro:
      'Elija una contraseña y una pregunta de seguridad para {{email}}. Si nos llama para pedir ayuda, le haremos esta pregunta para comprobar que es usted. Nunca le pediremos su contraseña.',
    submit: 'Activar cuenta',
  },
  register: {
    checking: 'Comprobando su enlace de registro…',
    heading: 'Crear su cuenta',
    intro: 'Elija una contraseña y una pregunta de seguridad para {{email}}.',
    submit: 'Crear cuenta',
    signingIn: 'Iniciando sesión…',
    invalid: {
      heading: 'Este enlace de registro no es válido',
      body: 'Es posible que el enlace haya caducado o que ya se haya utilizado. Solicite uno nuevo a la persona que se lo envió.',
    },
  },
  activateSent: {
    heading: 'Revise su bandeja de entrada',
    body: {
      one: 'Si su cuenta está pendiente de activación, le hemos enviado un nuevo enlace de activación a su dirección de correo electrónico. El enlace es válido durante {{count}} día.',
      many: 'Si su cuenta está pendiente de activación, le hemos enviado un nuevo enlace de activación a su dirección de correo electrónico. El enlace es válido durante {{count}} de días.',
      other:
        'Si su cuenta está pendiente de activación, le hemos enviado un nuevo enlace de activación a su dirección de correo electrónico. El enlace es válido durante {{count}} días.',
    },
    help: '¿No ha recibido el correo? Revise su carpeta de correo no deseado o contacte con soporte.',
  },
  activateExpired: {
    heading: 'Este enlace de activación ha caducado',
    body: 'Introduzca su dirección de correo electrónico y le enviaremos un nuevo enlace de activación.',
    email: 'Correo electrónico',
    submit: 'Enviar un nuevo enlace',
  },
  resetRequest: {
    heading: 'Restablecer su contraseña',
    intro:
      'Introduzca la dirección de correo electrónico de su cuenta y le enviaremos un enlace para restablecer su contraseña.',
    email: 'Correo electrónico',
    submit: 'Enviar enlace de restablecimiento',
    tokenExpired: 'Ese enlace para restablecer la contraseña ha caducado. Solicite uno nuevo.',
  },
  resetSent: {
    heading: 'Revise su bandeja de entrada',
    body: {
      one: 'Si existe una cuenta para {{email}}, le hemos enviado un enlace para restablecer la contraseña. El enlace es válido durante {{count}} minuto.',
      many: 'Si existe una cuenta para {{email}}, le hemos enviado un enlace para restablecer la contraseña. El enlace es válido durante {{count}} de minutos.',
      other:
        'Si existe una cuenta para {{email}}, le hemos enviado un enlace para restablecer la contraseña. El enlace es válido durante {{count}} minutos.',
    },
    bodyWithoutEmail: {
      one: 'Si existe una cuenta para la dirección que ha introducido, le hemos enviado un enlace para restablecer la contraseña. El enlace es válido durante {{count}} minuto.',
      many: 'Si existe una cuenta para la dirección que ha introducido, le hemos enviado un enlace para restablecer la contraseña. El enlace es válido durante {{count}} de minutos.',
      other:
        'Si existe una cuenta para la dirección que ha introducido, le hemos enviado un enlace para restablecer la contraseña. El enlace es válido durante {{count}} minutos.',
    },
    resend: 'Volver a enviar el correo',
    resent: 'Hemos vuelto a enviar el correo.',
    trouble: '¿Problemas para iniciar sesión?',
  },
  resetUpdate: {
    checking: 'Comprobando su enlace…',
    heading: 'Establecer una nueva contraseña',
    intro: 'Elija una nueva contraseña para {{email}}.',
    submit: 'Cambiar contraseña',
  },
  verifyEmail: {
    checking: 'Comprobando su enlace de verificación…',
    heading: 'Verificar su correo electrónico',
    intro: 'Introduzca su dirección de correo electrónico para confirmar que le pertenece.',
    email: 'Correo electrónico',
    submit: 'Verificar correo electrónico',
    mismatch: 'Este correo electrónico no coincide con nuestros registros. Inténtelo de nuevo.',
    success: 'Se ha verificado su dirección de correo electrónico. Le estamos redirigiendo…',
  },
  verifyExpired: {
    heading: 'Este enlace de verificación ha caducado',
    body: {
      one: 'Los enlaces de verificación son válidos durante {{count}} hora y solo se pueden usar una vez. Vuelva a iniciar sesión para solicitar uno nuevo.',
      many: 'Los enlaces de verificación son válidos durante {{count}} de horas y solo se pueden usar una vez. Vuelva a iniciar sesión para solicitar uno nuevo.',
      other:
        'Los enlaces de verificación son válidos durante {{count}} horas y solo se pueden usar una vez. Vuelva a iniciar sesión para solicitar uno nuevo.',
    },
  },
  passwordExpired: {
    heading: 'Su contraseña ha caducado',
  },
  passwordWillExpire: {
    heading: 'Su contraseña caducará pronto',
    today: 'Su contraseña caduca hoy.',
    tomorrow: 'Su contraseña caduca mañana.',
    inDays: {
      one: 'Su contraseña caduca dentro de {{count}} día.',
      many: 'Su contraseña caduca dentro de {{count}} de días.',
      other: 'Su contraseña caduca dentro de {{count}} días.',
    },
    resetLater: 'Restablecer más tarde',
  },
  verificationPrompt: {
    heading: 'Verificar su correo electrónico',
    body: {
      one: 'Antes de continuar, confirme que {{email}} es su dirección de correo electrónico. Le enviaremos un enlace de verificación válido durante {{count}} hora.',
      many: 'Antes de continuar, confirme que {{email}} es su dirección de correo electrónico. Le enviaremos un enlace de verificación válido durante {{count}} de horas.',
      other:
        'Antes de continuar, confirme que {{email}} es su dirección de correo electrónico. Le enviaremos un enlace de verificación válido durante {{count}} horas.',
    },
    send: 'Enviar correo de verificación',
    sentHeading: 'Revise su bandeja de entrada',
    sentBody: 'Hemos enviado un enlace de verificación a {{email}}. Ábralo para continuar.',
    notReceived: 'No he recibido el correo',
    logout: 'Cerrar sesión',
  },
  sessionDialog: {
    heading: 'Cierre la sesión primero',
    body: 'Ha iniciado sesión. Para utilizar este enlace, primero debe cerrar la sesión.',
    confirm: 'Cerrar sesión',
  },
  errors: {
    rateLimited: 'Ha realizado demasiadas solicitudes. Espere unos minutos e inténtelo de nuevo.',
    rateLimitedNetwork: 'Demasiadas solicitudes desde su red. Inténtelo de nuevo {{when}}.',
    rateLimitedVerification:
      'Ya le hemos enviado varios correos de verificación. Podrá solicitar otro {{when}}.',
    captcha:
      'No hemos podido confirmar que esta solicitud la haya realizado una persona. Vuelva a cargar la página e inténtelo de nuevo.',
  },
  mail: {
    linkHint: 'Si el botón no funciona, copie este enlace en su navegador:',
    footer: '{{tenant}} le ha enviado este correo electrónico.',
    activation: {
      subject: 'Active su cuenta de {{tenant}}',
      heading: 'Active su cuenta',
      body: 'Se ha creado una cuenta para usted en {{tenant}}. Elija su contraseña para activarla.',
      action: 'Activar cuenta',
      expiry: 'Este enlace es válido durante {{days}} días y solo se puede usar una vez.',
      ignore: 'Si no esperaba esta invitación, puede ignorar este correo electrónico.',
    },
    reset: {
      subject: 'Restablezca su contraseña de {{tenant}}',
      heading: 'Restablezca su contraseña',
      body: 'Hemos recibido una solicitud para restablecer la contraseña de su cuenta de {{tenant}}.',
      action: 'Restablecer contraseña',
      expiry: 'Este enlace es válido durante {{minutes}} minutos y solo se puede usar una vez.',
      ignore: 'Si no lo ha solicitado, puede ignorar este correo electrónico: su contraseña no cambiará.',
    },
    verifyEmail: {
      subject: 'Verifique su dirección de correo electrónico para {{tenant}}',
      heading: 'Verifique su dirección de correo electrónico',
      body: 'Confirme que esta es la dirección de correo electrónico de su cuenta de {{tenant}}.',
      action: 'Verificar correo electrónico',
      expiry: 'Este enlace es válido durante {{hours}} horas y solo se puede usar una vez.',
      ignore: 'Si no lo ha solicitado, puede ignorar este correo electrónico.',
    },
    partnerLinksRemoved: {
      subject: 'Se han quitado los inicios de sesión de socios de su cuenta de {{tenant}}',
      heading: 'Inicios de sesión de socios quitados',
      body: 'Su cuenta de {{tenant}} se creó o vinculó desde una aplicación de un socio antes de que usted la reclamara. Ahora que lo ha hecho, estos socios ya no pueden iniciar sesión en ella:',
      relink:
        'Si usted mismo utiliza alguno de estos socios, inicie sesión con su contraseña y vuelva a vincularlo desde su cuenta.',
      action: 'Iniciar sesión',
      notYou:
        'Si no acaba de restablecer su contraseña ni de verificar su dirección, póngase en contacto con su administrador.',
    },
  },
};
