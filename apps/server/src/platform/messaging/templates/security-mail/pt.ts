import type { SecurityMailTexts } from './en.ts';

export const securityMailPt: SecurityMailTexts = {
  passwordChanged: {
    subject: 'A sua palavra-passe de {{tenant}} foi alterada',
    heading: 'A sua palavra-passe foi alterada',
    body: 'A palavra-passe da sua conta {{tenant}} acabou de ser alterada. As suas outras sessões foram terminadas.',
  },
  passkeyAdded: {
    subject: 'Foi adicionada uma chave de acesso à sua conta {{tenant}}',
    heading: 'Foi adicionada uma chave de acesso',
    body: 'A chave de acesso “{{name}}” pode agora iniciar sessão na sua conta {{tenant}}.',
  },
  passkeyRemoved: {
    subject: 'Foi removida uma chave de acesso da sua conta {{tenant}}',
    heading: 'Foi removida uma chave de acesso',
    body: 'A chave de acesso “{{name}}” já não pode iniciar sessão na sua conta {{tenant}}.',
  },
  factorAdded: {
    subject: 'Foi adicionado um passo de início de sessão à sua conta {{tenant}}',
    heading: 'Foi configurado um segundo passo de início de sessão',
    body: 'Iniciar sessão na sua conta {{tenant}} pede agora um segundo passo: {{factor}}.',
  },
  factorRemoved: {
    subject: 'Foi removido um passo de início de sessão da sua conta {{tenant}}',
    heading: 'Foi removido um segundo passo de início de sessão',
    body: 'O segundo passo de início de sessão “{{factor}}” foi removido da sua conta {{tenant}}.',
  },
  recoveryCodesRenewed: {
    subject: 'Novos códigos de recuperação para a sua conta {{tenant}}',
    heading: 'Foram criados novos códigos de recuperação',
    body: 'Foram criados novos códigos de recuperação para a sua conta {{tenant}}. Os antigos deixaram de funcionar.',
  },
  partnerLinked: {
    subject: '{{partner}} foi associado à sua conta {{tenant}}',
    heading: 'Foi associado um parceiro',
    body: '{{partner}} pode agora iniciar a sua sessão na sua conta {{tenant}}.',
  },
  newBrowserSignIn: {
    subject: 'Novo início de sessão na sua conta {{tenant}}',
    heading: 'Um novo navegador iniciou sessão',
    body: 'Foi iniciada sessão na sua conta {{tenant}} a partir de um navegador nunca antes visto.',
  },
  factors: { authenticatorApp: 'aplicação de autenticação', phone: 'telefone', mobileApp: 'aplicação móvel' },
  when: 'Quando',
  browser: 'Navegador',
  browserOn: '{{browser}} em {{os}}',
  address: 'Endereço',
  unknown: 'desconhecido',
  ifYou: 'Se foi você, não precisa de fazer mais nada.',
  notYou:
    'Se não foi você, reponha já a sua palavra-passe e depois reveja a sua conta: outra pessoa pode conhecer a sua palavra-passe.',
  notYouAction: 'Não fui eu',
  accountAction: 'Rever a sua conta',
  linkHint: 'Se o botão não funcionar, copie este link para o seu navegador:',
  footer: 'Este e-mail foi enviado por {{tenant}} porque diz respeito à segurança da sua conta.',
};
