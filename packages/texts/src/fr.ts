import { accountFr } from './account/fr.ts';
import type { Texts } from './en.ts';
import { lifecycleFr } from './lifecycle/fr.ts';
import { mfaFr } from './mfa/fr.ts';
import { passkeysFr } from './passkeys/fr.ts';

export const fr: Texts = {
  common: {
    appName: 'Keycard',
    loading: 'Chargement…',
    next: 'Suivant',
    back: 'Retour',
    close: 'Fermer',
    showPassword: 'Afficher le mot de passe',
    hidePassword: 'Masquer le mot de passe',
    required: 'Ce champ est obligatoire',
    invalidEmail: 'Cette adresse e-mail ne semble pas valide',
    networkError: 'Nous rencontrons des difficultés pour joindre nos serveurs. Veuillez réessayer.',
    contactSupport: 'Contacter l’assistance',
    backToLogin: 'Retour à la connexion',
    language: 'Langue',
    logoAlt: 'Logo de {{name}}',
    errorSummary: 'Veuillez corriger le champ mis en évidence.',
  },
  titles: {
    login: 'Connexion',
    loginPassword: 'Saisissez votre mot de passe',
    accountCreated: 'Compte créé',
    logout: 'Déconnexion en cours',
    authenticate: 'Connexion en cours',
    authenticated: 'Connexion réussie',
    authorize: 'Redirection vers votre application',
    notFound: 'Page introuvable',
    unknownError: 'Une erreur s’est produite',
    loadFailed: 'Page non chargée',
    accountDisabled: 'Compte désactivé',
    partnerSso: 'Connexion partenaire',
    requestRefused: 'Demande de connexion refusée',
    logoutRefused: 'Demande de déconnexion refusée',
  },
  login: {
    email: {
      heading: 'Connexion',
      intro: 'Saisissez l’adresse e-mail de votre compte.',
      label: 'Adresse e-mail',
      remember: 'Se souvenir de mon adresse e-mail',
      submit: 'Suivant',
    },
    password: {
      heading: 'Saisissez votre mot de passe',
      back: 'Retour à l’adresse e-mail',
      change: 'Modifier l’adresse e-mail',
      signedInAs: 'Connexion en tant que {{email}}',
      label: 'Mot de passe',
      forgot: 'Mot de passe oublié ?',
      submit: 'Se connecter',
      trouble: 'Un problème pour vous connecter ?',
    },
    signedIn: {
      notice: 'Vous êtes connecté en tant que {{email}}.',
      continue: 'Continuer',
      logOut: 'Se déconnecter',
      other: 'Pour utiliser un autre compte, saisissez son adresse e-mail ci-dessous.',
    },
    notices: {
      loggedOut: 'Votre session a été fermée.',
      resetPassword: 'Votre mot de passe a été modifié. Connectez-vous avec votre nouveau mot de passe.',
      accountCreated: 'Votre compte a été créé. Connectez-vous pour commencer.',
      reauthenticate: 'Pour votre sécurité, veuillez saisir à nouveau votre mot de passe.',
    },
    app: {
      back: 'Retour à {{app}}',
    },
    passkey: {
      signIn: 'Se connecter avec une clé d’accès',
      instead: 'Utiliser plutôt une clé d’accès',
      or: 'ou',
      waiting: 'En attente de votre clé d’accès…',
      errors: {
        cancelled: 'Aucune clé d’accès n’a été utilisée. Réessayez ou continuez avec votre adresse e-mail.',
        failed:
          'Cette clé d’accès n’a pas permis de vous connecter. Essayez-en une autre ou continuez avec votre adresse e-mail.',
        expired: 'La demande de clé d’accès a expiré. Veuillez réessayer.',
        unsupported:
          'Ce navigateur ne peut pas utiliser de clé d’accès ici. Continuez avec votre adresse e-mail.',
        rateLimited: 'Trop de tentatives avec une clé d’accès. Patientez quelques minutes, puis réessayez.',
        removed:
          'Cette clé d’accès n’est plus enregistrée ici ; elle a peut-être été supprimée. Utilisez-en une autre ou continuez avec votre adresse e-mail.',
      },
    },
    errors: {
      invalidCredentials: 'Adresse e-mail ou mot de passe incorrect. Veuillez réessayer.',
      /** After three failures in a row: the attempts left before the pause (the same with an account or without). */
      attemptsLeft: {
        one: 'Adresse e-mail ou mot de passe incorrect. Après {{count}} autre tentative échouée, la connexion avec cette adresse sera suspendue un moment. Vous pouvez aussi réinitialiser votre mot de passe.',
        many: 'Adresse e-mail ou mot de passe incorrect. Après {{count}} autres tentatives échouées, la connexion avec cette adresse sera suspendue un moment. Vous pouvez aussi réinitialiser votre mot de passe.',
        other:
          'Adresse e-mail ou mot de passe incorrect. Après {{count}} autres tentatives échouées, la connexion avec cette adresse sera suspendue un moment. Vous pouvez aussi réinitialiser votre mot de passe.',
      },
      busy: 'Trop de connexions sont en cours de vérification. Veuillez réessayer dans quelques secondes.',
    },
    /** A refused attempt: the limit that refused it (docs/security.md), and when to try again. */
    limits: {
      address: 'Trop de tentatives depuis votre réseau. Veuillez réessayer {{when}}.',
      account:
        'Ce compte est verrouillé pour votre sécurité. Réessayez {{when}} ou réinitialisez votre mot de passe.',
      ready: 'Vous pouvez réessayer maintenant.',
      reset: 'Réinitialiser le mot de passe',
    },
  },
  authenticate: {
    loading: 'Connexion en cours…',
  },
  authenticated: {
    loading: 'Redirection vers votre application…',
  },
  partnerSso: {
    loading: 'Connexion en cours…',
    emailUnverified: {
      heading: 'Cette adresse n’est pas confirmée',
      body: 'L’application d’où vous venez n’a pas confirmé votre adresse e-mail : nous ne pouvons donc pas vous connecter avec elle. Confirmez votre adresse auprès de cette application et réessayez, ou connectez-vous ici avec votre mot de passe.',
      signIn: 'Aller à la connexion',
    },
    networkDialog: {
      heading: 'Problème de connexion',
      body: 'Nous rencontrons des difficultés pour joindre nos serveurs. Vérifiez votre connexion, puis rechargez pour réessayer.',
      reload: 'Recharger',
    },
  },
  logout: {
    loading: 'Déconnexion en cours…',
    provider: {
      body: 'Vous êtes en cours de déconnexion. Si rien ne se passe, sélectionnez « Se déconnecter ».',
      submit: 'Se déconnecter',
    },
  },
  errors: {
    notFound: {
      heading: 'Page introuvable',
      body: 'La page que vous recherchez n’existe pas ou a été déplacée.',
    },
    unknown: {
      heading: 'Une erreur s’est produite',
      body: 'Nous n’avons pas pu traiter votre demande. Veuillez revenir à la page de connexion et réessayer.',
    },
    loadFailed: {
      heading: 'Cette page ne s’est pas chargée',
      body: 'Une partie de cette page n’a pas pu être chargée. Vérifiez votre connexion et réessayez.',
      retry: 'Réessayer',
    },
    accountDisabled: {
      heading: 'Votre compte est verrouillé',
      body: 'Pour votre sécurité, la connexion à ce compte est bloquée pour le moment. Réinitialisez votre mot de passe ou contactez l’assistance pour récupérer l’accès.',
      reset: 'Réinitialiser le mot de passe',
    },
    provider: {
      next: 'Revenez à l’application et réessayez. Si le problème persiste, contactez l’assistance de l’application et indiquez-lui le code d’erreur.',
      codeLabel: 'Code d’erreur',
      reasons: {
        invalid_request: 'La demande de l’application est incomplète ou mal formée.',
        invalid_client: 'L’application n’est pas enregistrée auprès de ce service de connexion.',
        invalid_redirect_uri:
          'L’application a demandé à vous renvoyer vers une adresse qui n’est pas enregistrée pour elle.',
        unauthorized_client: 'L’application n’est pas autorisée à vous connecter de cette façon.',
        invalid_scope: 'L’application a demandé un accès que ce service n’accorde pas.',
        unsupported_response_type:
          'L’application a demandé un type de réponse que ce service ne fournit pas.',
        server_error: 'Le service de connexion n’a pas pu traiter la demande. Réessayez dans un instant.',
        temporarily_unavailable:
          'Le service de connexion est momentanément indisponible. Réessayez dans un instant.',
        other: 'La demande de l’application n’a pas pu aboutir.',
      },
    },
  },
  lifecycle: lifecycleFr,
  mfa: mfaFr,
  passkeys: passkeysFr,
  account: accountFr,
};
