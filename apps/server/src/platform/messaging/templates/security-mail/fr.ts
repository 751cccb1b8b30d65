import type { SecurityMailTexts } from './en.ts';

export const securityMailFr: SecurityMailTexts = {
  passwordChanged: {
    subject: 'Votre mot de passe {{tenant}} a été modifié',
    heading: 'Votre mot de passe a été modifié',
    body: 'Le mot de passe de votre compte {{tenant}} vient d’être modifié. Vos autres sessions ont été déconnectées.',
  },
  passkeyAdded: {
    subject: 'Une clé d’accès a été ajoutée à votre compte {{tenant}}',
    heading: 'Une clé d’accès a été ajoutée',
    body: 'La clé d’accès « {{name}} » peut désormais se connecter à votre compte {{tenant}}.',
  },
  passkeyRemoved: {
    subject: 'Une clé d’accès a été supprimée de votre compte {{tenant}}',
    heading: 'Une clé d’accès a été supprimée',
    body: 'La clé d’accès « {{name}} » ne peut plus se connecter à votre compte {{tenant}}.',
  },
  factorAdded: {
    subject: 'Une étape de connexion a été ajoutée à votre compte {{tenant}}',
    heading: 'Une seconde étape de connexion a été configurée',
    body: 'La connexion à votre compte {{tenant}} demande désormais une seconde étape : {{factor}}.',
  },
  factorRemoved: {
    subject: 'Une étape de connexion a été supprimée de votre compte {{tenant}}',
    heading: 'Une seconde étape de connexion a été supprimée',
    body: 'La seconde étape de connexion « {{factor}} » a été supprimée de votre compte {{tenant}}.',
  },
  recoveryCodesRenewed: {
    subject: 'Nouveaux codes de récupération pour votre compte {{tenant}}',
    heading: 'De nouveaux codes de récupération ont été créés',
    body: 'De nouveaux codes de récupération ont été créés pour votre compte {{tenant}}. Les anciens ne fonctionnent plus.',
  },
  partnerLinked: {
    subject: '{{partner}} a été associé à votre compte {{tenant}}',
    heading: 'Un partenaire a été associé',
    body: '{{partner}} peut désormais vous connecter à votre compte {{tenant}}.',
  },
  newBrowserSignIn: {
    subject: 'Nouvelle connexion à votre compte {{tenant}}',
    heading: 'Un nouveau navigateur s’est connecté',
    body: 'Une connexion à votre compte {{tenant}} a eu lieu depuis un navigateur jamais vu auparavant.',
  },
  factors: {
    authenticatorApp: 'application d’authentification',
    phone: 'téléphone',
    mobileApp: 'application mobile',
  },
  when: 'Quand',
  browser: 'Navigateur',
  browserOn: '{{browser}} sous {{os}}',
  address: 'Adresse',
  unknown: 'inconnu',
  ifYou: 'Si c’était vous, vous n’avez rien d’autre à faire.',
  notYou:
    'Si ce n’était pas vous, réinitialisez votre mot de passe maintenant, puis vérifiez votre compte : quelqu’un d’autre connaît peut-être votre mot de passe.',
  notYouAction: 'Ce n’était pas moi',
  accountAction: 'Vérifier votre compte',
  linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
  footer: 'Cet e-mail vous a été envoyé par {{tenant}} car il concerne la sécurité de votre compte.',
};
