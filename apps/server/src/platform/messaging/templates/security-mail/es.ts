import type { SecurityMailTexts } from './en.ts';

export const securityMailEs: SecurityMailTexts = {
  passwordChanged: {
    subject: 'Se ha cambiado su contraseña de {{tenant}}',
    heading: 'Se ha cambiado su contraseña',
    body: 'Se acaba de cambiar la contraseña de su cuenta de {{tenant}}. Se han cerrado sus otras sesiones.',
  },
  passkeyAdded: {
    subject: 'Se ha añadido una llave de acceso a su cuenta de {{tenant}}',
    heading: 'Se ha añadido una llave de acceso',
    body: 'La llave de acceso «{{name}}» ya puede iniciar sesión en su cuenta de {{tenant}}.',
  },
  passkeyRemoved: {
    subject: 'Se ha eliminado una llave de acceso de su cuenta de {{tenant}}',
    heading: 'Se ha eliminado una llave de acceso',
    body: 'La llave de acceso «{{name}}» ya no puede iniciar sesión en su cuenta de {{tenant}}.',
  },
  factorAdded: {
    subject: 'Se ha añadido un paso de inicio de sesión a su cuenta de {{tenant}}',
    heading: 'Se ha configurado un segundo paso de inicio de sesión',
    body: 'Al iniciar sesión en su cuenta de {{tenant}} se le pedirá ahora un segundo paso: {{factor}}.',
  },
  factorRemoved: {
    subject: 'Se ha eliminado un paso de inicio de sesión de su cuenta de {{tenant}}',
    heading: 'Se ha eliminado un segundo paso de inicio de sesión',
    body: 'Se ha eliminado el segundo paso de inicio de sesión «{{factor}}» de su cuenta de {{tenant}}.',
  },
  recoveryCodesRenewed: {
    subject: 'Nuevos códigos de recuperación para su cuenta de {{tenant}}',
    heading: 'Se han generado nuevos códigos de recuperación',
    body: 'Se han generado nuevos códigos de recuperación para su cuenta de {{tenant}}. Los anteriores ya no funcionan.',
  },
  partnerLinked: {
    subject: '{{partner}} se ha vinculado a su cuenta de {{tenant}}',
    heading: 'Se ha vinculado un socio',
    body: '{{partner}} ya puede iniciar su sesión en su cuenta de {{tenant}}.',
  },
  newBrowserSignIn: {
    subject: 'Nuevo inicio de sesión en su cuenta de {{tenant}}',
    heading: 'Un navegador nuevo ha iniciado sesión',
    body: 'Se ha iniciado sesión en su cuenta de {{tenant}} desde un navegador que no se había visto antes.',
  },
  factors: {
    authenticatorApp: 'aplicación de autenticación',
    phone: 'teléfono',
    mobileApp: 'aplicación móvil',
  },
  when: 'Cuándo',
  browser: 'Navegador',
  browserOn: '{{browser}} en {{os}}',
  address: 'Dirección',
  unknown: 'desconocido',
  ifYou: 'Si ha sido usted, no tiene que hacer nada más.',
  notYou:
    'Si no ha sido usted, restablezca su contraseña ahora y revise después su cuenta: puede que otra persona conozca su contraseña.',
  notYouAction: 'No he sido yo',
  accountAction: 'Revisar su cuenta',
  linkHint: 'Si el botón no funciona, copie este enlace en su navegador:',
  footer: '{{tenant}} le ha enviado este correo electrónico porque afecta a la seguridad de su cuenta.',
};
