import type { Texts } from '../en.ts';

export const lifecycleFr: Texts['lifecycle'] = {
  titles: {
    activate: 'Activer votre compte',
    register: 'Créer votre compte',
    activateSent: 'E-mail d’activation envoyé',
    activateExpired: 'Lien d’activation expiré',
    resetPassword: 'Réinitialiser votre mot de passe',
    resetPasswordSent: 'E-mail de réinitialisation envoyé',
    resetPasswordUpdate: 'Définir un nouveau mot de passe',
    verifyEmail: 'Vérifier votre adresse e-mail',
    verifyExpired: 'Lien de vérification expiré',
    passwordExpired: 'Mot de passe expiré',
    passwordWillExpire: 'Mot de passe bientôt expiré',
  },
  passwordForm: {
    password: 'Nouveau mot de passe',
    confirmPassword: 'Confirmer le nouveau mot de passe',
    hint: 'Utilisez au moins 8 caractères, avec des majuscules, des minuscules et un chiffre.',
    secretQuestion: 'Question secrète',
    chooseQuestion: 'Choisissez une question',
    secretAnswer: 'Réponse secrète',
    errors: {
      format:
        'Il doit contenir des lettres majuscules et minuscules, un chiffre et comporter au moins 8 caractères',
      mismatch: 'Ces mots de passe ne correspondent pas',
      history:
        'Votre nouveau mot de passe ne peut pas être identique à l’un de vos quatre derniers mots de passe.',
      leaked:
        'Ce mot de passe figure dans des fuites de données connues et n’est pas sûr. Veuillez en choisir un autre.',
    },
  },
  secretQuestions: {
    motherMaidenName: 'Quel est le nom de jeune fille de votre mère ?',
    fatherMiddleName: 'Quel est le deuxième prénom de votre père ?',
    townWhereBorn: 'Quelle est votre ville de naissance ?',
    firstOverseasTrip: 'Quelle a été la destination de votre premier voyage à l’étranger ?',
    firstSchool: 'Comment s’appelait votre première école ?',
    firstPetName: 'Comment s’appelait votre premier animal de compagnie ?',
  },
  activate: {
    checking: 'Vérification de votre lien d’activation…',
    heading: 'Activer votre compte',
    intro:
      'Choisissez un mot de passe et une question secrète pour {{email}}. Si vous nous appelez pour obtenir de l’aide, nous vous poserons cette question pour vérifier qu’il s’agit bien de vous. Nous ne vous demanderons jamais votre mot de passe.',
    submit: 'Activer le compte',
  },
  register: {
    checking: 'Vérification de votre lien d’inscription…',
    heading: 'Créer votre compte',
    intro: 'Choisissez un mot de passe et une question secrète pour {{email}}.',
    submit: 'Créer le compte',
    signingIn: 'Connexion en cours…',
    invalid: {
      heading: 'Ce lien d’inscription n’est pas valide',
      body: 'Le lien a peut-être expiré ou a déjà été utilisé. Demandez-en un nouveau à la personne qui vous l’a envoyé.',
    },
  },
  activateSent: {
    heading: 'Consultez votre boîte de réception',
    body: {
      one: 'Si votre compte est en attente d’activation, nous avons envoyé un nouveau lien d’activation à votre adresse e-mail. Ce lien est valable {{count}} jour.',
      many: 'Si votre compte est en attente d’activation, nous avons envoyé un nouveau lien d’activation à votre adresse e-mail. Ce lien est valable {{count}} de jours.',
      other:
        'Si votre compte est en attente d’activation, nous avons envoyé un nouveau lien d’activation à votre adresse e-mail. Ce lien est valable {{count}} jours.',
    },
    help: 'Vous n’avez rien reçu ? Vérifiez votre dossier de courrier indésirable ou contactez l’assistance.',
  },
  activateExpired: {
    heading: 'Ce lien d’activation a expiré',
    body: 'Saisissez votre adresse e-mail et nous vous enverrons un nouveau lien d’activation.',
    email: 'Adresse e-mail',
    submit: 'Envoyer un nouveau lien',
  },
  resetRequest: {
    heading: 'Réinitialiser votre mot de passe',
    intro:
      'Saisissez l’adresse e-mail de votre compte et nous vous enverrons un lien pour réinitialiser votre mot de passe.',
    email: 'Adresse e-mail',
    submit: 'Envoyer le lien de réinitialisation',
    tokenExpired: 'Ce lien de réinitialisation du mot de passe a expiré. Demandez-en un nouveau.',
  },
  resetSent: {
    heading: 'Consultez votre boîte de réception',
    body: {
      one: 'Si un compte existe pour {{email}}, nous lui avons envoyé un lien pour réinitialiser le mot de passe. Ce lien est valable {{count}} minute.',
      many: 'Si un compte existe pour {{email}}, nous lui avons envoyé un lien pour réinitialiser le mot de passe. Ce lien est valable {{count}} de minutes.',
      other:
        'Si un compte existe pour {{email}}, nous lui avons envoyé un lien pour réinitialiser le mot de passe. Ce lien est valable {{count}} minutes.',
    },
    bodyWithoutEmail: {
      one: 'Si un compte existe pour l’adresse saisie, nous lui avons envoyé un lien pour réinitialiser le mot de passe. Ce lien est valable {{count}} minute.',
      many: 'Si un compte existe pour l’adresse saisie, nous lui avons envoyé un lien pour réinitialiser le mot de passe. Ce lien est valable {{count}} de minutes.',
      other:
        'Si un compte existe pour l’adresse saisie, nous lui avons envoyé un lien pour réinitialiser le mot de passe. Ce lien est valable {{count}} minutes.',
    },
    resend: 'Renvoyer l’e-mail',
    resent: 'Nous avons renvoyé l’e-mail.',
    trouble: 'Un problème pour vous connecter ?',
  },
  resetUpdate: {
    checking: 'Vérification de votre lien…',
    heading: 'Définir un nouveau mot de passe',
    intro: 'Choisissez un nouveau mot de passe pour {{email}}.',
    submit: 'Modifier le mot de passe',
  },
  verifyEmail: {
    checking: 'Vérification de votre lien de confirmation…',
    heading: 'Vérifier votre adresse e-mail',
    intro: 'Saisissez votre adresse e-mail pour confirmer qu’elle vous appartient.',
    email: 'Adresse e-mail',
    submit: 'Vérifier l’adresse e-mail',
    mismatch: 'Cette adresse e-mail ne correspond pas à nos données. Veuillez réessayer.',
    success: 'Votre adresse e-mail a été vérifiée. Redirection en cours…',
  },
  verifyExpired: {
    heading: 'Ce lien de vérification a expiré',
    body: {
      one: 'Les liens de vérification sont valables {{count}} heure et ne fonctionnent qu’une seule fois. Reconnectez-vous pour en demander un nouveau.',
      many: 'Les liens de vérification sont valables {{count}} d’heures et ne fonctionnent qu’une seule fois. Reconnectez-vous pour en demander un nouveau.',
      other:
        'Les liens de vérification sont valables {{count}} heures et ne fonctionnent qu’une seule fois. Reconnectez-vous pour en demander un nouveau.',
    },
  },
  passwordExpired: {
    heading: 'Votre mot de passe a expiré',
  },
  passwordWillExpire: {
    heading: 'Votre mot de passe va bientôt expirer',
    today: 'Votre mot de passe expire aujourd’hui.',
    tomorrow: 'Votre mot de passe expire demain.',
    inDays: {
      one: 'Votre mot de passe expire dans {{count}} jour.',
      many: 'Votre mot de passe expire dans {{count}} de jours.',
      other: 'Votre mot de passe expire dans {{count}} jours.',
    },
    resetLater: 'Réinitialiser plus tard',
  },
  verificationPrompt: {
    heading: 'Vérifier votre adresse e-mail',
    body: {
      one: 'Avant de continuer, confirmez que {{email}} est bien votre adresse e-mail. Nous vous enverrons un lien de vérification valable {{count}} heure.',
      many: 'Avant de continuer, confirmez que {{email}} est bien votre adresse e-mail. Nous vous enverrons un lien de vérification valable {{count}} d’heures.',
      other:
        'Avant de continuer, confirmez que {{email}} est bien votre adresse e-mail. Nous vous enverrons un lien de vérification valable {{count}} heures.',
    },
    send: 'Envoyer l’e-mail de vérification',
    sentHeading: 'Consultez votre boîte de réception',
    sentBody: 'Nous avons envoyé un lien de vérification à {{email}}. Ouvrez-le pour continuer.',
    notReceived: 'Je n’ai pas reçu l’e-mail',
    logout: 'Se déconnecter',
  },
  sessionDialog: {
    heading: 'Déconnectez-vous d’abord',
    body: 'Vous êtes connecté. Pour utiliser ce lien, vous devez d’abord vous déconnecter.',
    confirm: 'Se déconnecter',
  },
  errors: {
    rateLimited: 'Vous avez effectué trop de demandes. Veuillez patienter quelques minutes, puis réessayer.',
    rateLimitedNetwork: 'Trop de demandes depuis votre réseau. Veuillez réessayer {{when}}.',
    rateLimitedVerification:
      'Nous vous avons déjà envoyé plusieurs e-mails de vérification. Vous pourrez en demander un autre {{when}}.',
    captcha:
      'Nous n’avons pas pu confirmer que cette demande provient d’une personne. Rechargez la page et réessayez.',
  },
  mail: {
    linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    footer: 'Cet e-mail vous a été envoyé par {{tenant}}.',
    activation: {
      subject: 'Activez votre compte {{tenant}}',
      heading: 'Activez votre compte',
      body: 'Un compte a été créé pour vous chez {{tenant}}. Choisissez votre mot de passe pour l’activer.',
      action: 'Activer le compte',
      expiry: 'Ce lien est valable {{days}} jours et ne fonctionne qu’une seule fois.',
      ignore: 'Si vous n’attendiez pas cette invitation, vous pouvez ignorer cet e-mail.',
    },
    reset: {
      subject: 'Réinitialisez votre mot de passe {{tenant}}',
      heading: 'Réinitialisez votre mot de passe',
      body: 'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte {{tenant}}.',
      action: 'Réinitialiser le mot de passe',
      expiry: 'Ce lien est valable {{minutes}} minutes et ne fonctionne qu’une seule fois.',
      ignore:
        'Si vous n’êtes pas à l’origine de cette demande, vous pouvez ignorer cet e-mail : votre mot de passe reste inchangé.',
    },
    verifyEmail: {
      subject: 'Vérifiez votre adresse e-mail pour {{tenant}}',
      heading: 'Vérifiez votre adresse e-mail',
      body: 'Confirmez qu’il s’agit bien de l’adresse e-mail de votre compte {{tenant}}.',
      action: 'Vérifier l’adresse e-mail',
      expiry: 'Ce lien est valable {{hours}} heures et ne fonctionne qu’une seule fois.',
      ignore: 'Si vous n’êtes pas à l’origine de cette demande, vous pouvez ignorer cet e-mail.',
    },
    partnerLinksRemoved: {
      subject: 'Connexions partenaires retirées de votre compte {{tenant}}',
      heading: 'Connexions partenaires retirées',
      body: 'Votre compte {{tenant}} a été créé ou associé par une application partenaire avant que vous n’en preniez possession. Maintenant que c’est fait, ces partenaires ne peuvent plus s’y connecter :',
      relink:
        'Si vous utilisez vous-même l’un de ces partenaires, connectez-vous avec votre mot de passe et associez-le de nouveau depuis votre compte.',
      action: 'Se connecter',
      notYou:
        'Si vous n’avez pas réinitialisé votre mot de passe ni vérifié votre adresse à l’instant, contactez votre administrateur.',
    },
  },
};
