import type { Texts } from '../en.ts';

export const passkeysFr: Texts['passkeys'] = {
  titles: {
    offer: 'Connectez-vous plus vite la prochaine fois',
    stepUp: 'Confirmer avec une clé d’accès',
    created: 'Clé d’accès créée',
  },
  offer: {
    heading: 'Connectez-vous plus vite la prochaine fois avec une clé d’accès',
    body: 'Avec une clé d’accès, vous vous connectez avec votre empreinte, votre visage ou le verrouillage de l’écran au lieu de votre mot de passe. Elle reste sur votre appareil ou dans votre gestionnaire de mots de passe et ne fonctionne que sur ce site, si bien que personne ne peut vous la soutirer.',
    create: 'Créer une clé d’accès',
    notNow: 'Pas maintenant',
    created: 'Votre clé d’accès est prête. La prochaine fois, choisissez-la pour vous connecter.',
    continue: 'Continuer',
  },
  stepUp: {
    heading: 'Confirmer avec une clé d’accès',
    body: '{{app}} vous demande de confirmer avec une clé d’accès ou une clé de sécurité. Votre mot de passe ne suffit pas pour cela.',
    bodyNoApp:
      'Cette application vous demande de confirmer avec une clé d’accès ou une clé de sécurité. Votre mot de passe ne suffit pas pour cela.',
    confirm: 'Confirmer avec une clé d’accès',
    none: 'Votre compte n’a encore aucune clé d’accès ni clé de sécurité pour ce site. Ajoutez-en une sur la page de votre compte, puis réessayez depuis l’application.',
    account: 'Aller à la page de votre compte',
  },
  mfa: {
    heading: 'Confirmez votre identité',
    intro: 'Utilisez la clé d’accès ou la clé de sécurité que vous avez ajoutée à votre compte.',
    elsewhere:
      'Votre clé d’accès ou clé de sécurité ne fonctionne que sur le site où vous l’avez créée : {{domains}}. Connectez-vous là-bas pour l’utiliser.',
    option: 'Utiliser votre clé d’accès ou votre clé de sécurité',
  },
  waiting: 'En attente de votre clé d’accès…',
  errors: {
    cancelled: 'Aucune clé d’accès n’a été utilisée. Réessayez quand vous serez prêt.',
    exists: 'Cet appareil contient déjà une clé d’accès pour votre compte.',
    limit:
      'Votre compte a déjà le nombre maximal de clés d’accès. Supprimez-en une sur la page de votre compte pour en ajouter une autre.',
    failed:
      'Cette clé d’accès ou clé de sécurité n’a pas pu être vérifiée. Réessayez ou utilisez-en une autre.',
    expired: 'La demande a expiré. Veuillez réessayer.',
    unsupported: 'Ce navigateur ou cet appareil ne peut pas utiliser de clé d’accès ici.',
    rateLimited: 'Trop de tentatives avec une clé d’accès. Patientez quelques minutes, puis réessayez.',
    notFound: 'Votre compte n’a aucune clé d’accès ni clé de sécurité utilisable sur ce site.',
    signInAgain:
      'Votre connexion n’est plus assez récente pour ajouter une clé d’accès. Continuez, et ajoutez-en une plus tard sur la page de votre compte.',
    unknown: 'Une erreur s’est produite. Veuillez réessayer.',
  },
};
