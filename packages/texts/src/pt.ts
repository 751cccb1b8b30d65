import { accountPt } from './account/pt.ts';
import type { Texts } from './en.ts';
import { lifecyclePt } from './lifecycle/pt.ts';
import { mfaPt } from './mfa/pt.ts';
import { passkeysPt } from './passkeys/pt.ts';

export const pt: Texts = {
  common: {
    appName: 'Keycard',
    loading: 'Carregando…',
    next: 'Avançar',
    back: 'Voltar',
    close: 'Fechar',
    showPassword: 'Mostrar senha',
    hidePassword: 'Ocultar senha',
    required: 'Este campo é obrigatório',
    invalidEmail: 'Este endereço de e-mail não parece ser válido',
    networkError: 'Não foi possível comunicar com os nossos servidores. Tente novamente.',
    contactSupport: 'Falar com o suporte',
    backToLogin: 'Voltar ao início de sessão',
    language: 'Idioma',
    logoAlt: 'Logotipo de {{name}}',
    errorSummary: 'Corrija o campo destacado.',
  },
  titles: {
    login: 'Iniciar sessão',
    loginPassword: 'Insira a sua senha',
    accountCreated: 'Conta criada',
    logout: 'Encerrando sessão',
    authenticate: 'Iniciando sessão',
    authenticated: 'Sessão iniciada',
    authorize: 'Redirecionando para a sua aplicação',
    notFound: 'Página não encontrada',
    unknownError: 'Ocorreu um erro',
    loadFailed: 'A página não carregou',
    accountDisabled: 'Conta desativada',
    partnerSso: 'Acesso de parceiro',
    requestRefused: 'Solicitação de início de sessão recusada',
    logoutRefused: 'Solicitação de encerramento de sessão recusada',
  },
  login: {
    email: {
      heading: 'Iniciar sessão',
      intro: 'Insira o endereço de e-mail da sua conta.',
      label: 'E-mail',
      remember: 'Lembrar o meu e-mail',
      submit: 'Avançar',
    },
    password: {
      heading: 'Insira a sua senha',
      back: 'Voltar ao e-mail',
      change: 'Alterar e-mail',
      signedInAs: 'Início de sessão como {{email}}',
      label: 'Senha',
      forgot: 'Esqueceu a sua senha?',
      submit: 'Iniciar sessão',
      trouble: 'Problemas ao iniciar sessão?',
    },
    signedIn: {
      notice: 'Já tem sessão iniciada como {{email}}.',
      continue: 'Continuar',
      logOut: 'Terminar sessão',
      other: 'Para usar outra conta, introduza o respetivo endereço de e-mail abaixo.',
    },
    notices: {
      loggedOut: 'A sua sessão foi encerrada.',
      resetPassword: 'A sua senha foi alterada. Inicie sessão com a nova senha.',
      accountCreated: 'A sua conta foi criada. Inicie sessão para começar.',
      reauthenticate: 'Para sua segurança, insira novamente a sua senha.',
    },
    app: {
      back: 'Voltar para {{app}}',
    },
    passkey: {
      signIn: 'Iniciar sessão com uma chave de acesso',
      instead: 'Usar uma chave de acesso',
      or: 'ou',
      waiting: 'À espera da sua chave de acesso…',
      errors: {
        cancelled:
          'Não foi usada nenhuma chave de acesso. Tente novamente ou continue com o seu endereço de e-mail.',
        failed:
          'Não foi possível iniciar sessão com esta chave de acesso. Experimente outra ou continue com o seu endereço de e-mail.',
        expired: 'O pedido da chave de acesso expirou. Tente novamente.',
        unsupported:
          'Este navegador não consegue usar uma chave de acesso aqui. Continue com o seu endereço de e-mail.',
        rateLimited: 'Demasiadas tentativas com chaves de acesso. Aguarde alguns minutos e tente novamente.',
        removed:
          'Esta chave de acesso já não está registada aqui; pode ter sido removida. Use outra ou continue com o seu endereço de e-mail.',
      },
    },
    errors: {
      invalidCredentials: 'E-mail ou senha inválidos. Tente novamente.',
      /** After three failures in a row: the attempts left before the pause (the same with an account or without). */
      attemptsLeft: {
        one: 'E-mail ou senha inválidos. Após mais {{count}} tentativa sem sucesso, o acesso com este endereço ficará em pausa por algum tempo. Também é possível redefinir a senha.',
        many: 'E-mail ou senha inválidos. Após mais {{count}} tentativas sem sucesso, o acesso com este endereço ficará em pausa por algum tempo. Também é possível redefinir a senha.',
        other:
          'E-mail ou senha inválidos. Após mais {{count}} tentativas sem sucesso, o acesso com este endereço ficará em pausa por algum tempo. Também é possível redefinir a senha.',
      },
      busy: 'Há muitos acessos sendo verificados agora. Tente novamente em alguns segundos.',
    },
    /** A refused attempt: the limit that refused it (docs/security.md), and when to try again. */
    limits: {
      address: 'Demasiadas tentativas a partir da sua rede. Tente novamente {{when}}.',
      account:
        'Esta conta está bloqueada para a sua segurança. Tente novamente {{when}} ou redefina a sua senha.',
      ready: 'Já pode tentar novamente.',
      reset: 'Redefinir a senha',
    },
  },
  authenticate: {
    loading: 'Iniciando a sua sessão…',
  },
  authenticated: {
    loading: 'Redirecionando para a sua aplicação…',
  },
  partnerSso: {
    loading: 'Iniciando a sua sessão…',
    emailUnverified: {
      heading: 'Este endereço não está confirmado',
      body: 'A aplicação de onde veio não confirmou o seu endereço de e-mail, pelo que não podemos iniciar a sua sessão com ele. Confirme o seu endereço nessa aplicação e tente novamente, ou inicie sessão aqui com a sua palavra-passe.',
      signIn: 'Ir para o início de sessão',
    },
    networkDialog: {
      heading: 'Problema de conexão',
      body: 'Não foi possível comunicar com os nossos servidores. Verifique a sua conexão e recarregue para tentar novamente.',
      reload: 'Recarregar',
    },
  },
  logout: {
    loading: 'Encerrando a sua sessão…',
    provider: {
      body: 'Estamos encerrando a sua sessão. Se nada acontecer, selecione “Encerrar sessão”.',
      submit: 'Encerrar sessão',
    },
  },
  errors: {
    notFound: {
      heading: 'Página não encontrada',
      body: 'A página que procura não existe ou foi movida.',
    },
    unknown: {
      heading: 'Ocorreu um erro',
      body: 'Não foi possível concluir o seu pedido. Volte à página de início de sessão e tente novamente.',
    },
    loadFailed: {
      heading: 'Esta página não carregou',
      body: 'Não foi possível carregar parte desta página. Verifique a sua ligação e tente novamente.',
      retry: 'Tentar novamente',
    },
    accountDisabled: {
      heading: 'A sua conta está bloqueada',
      body: 'Para sua segurança, o início de sessão nesta conta está temporariamente bloqueado. Redefina a sua senha ou fale com o suporte para recuperar o acesso.',
      reset: 'Redefinir a senha',
    },
    provider: {
      next: 'Volte para a aplicação e tente novamente. Se o problema continuar, entre em contato com o suporte da aplicação e informe o código de erro.',
      codeLabel: 'Código de erro',
      reasons: {
        invalid_request: 'A solicitação da aplicação está incompleta ou malformada.',
        invalid_client: 'A aplicação não está registrada neste serviço de início de sessão.',
        invalid_redirect_uri:
          'A aplicação pediu para levar você de volta a um endereço que não está registrado para ela.',
        unauthorized_client: 'A aplicação não tem permissão para iniciar a sua sessão dessa forma.',
        invalid_scope: 'A aplicação solicitou um acesso que este serviço não concede.',
        unsupported_response_type: 'A aplicação solicitou um tipo de resposta que este serviço não oferece.',
        server_error:
          'O serviço de início de sessão não conseguiu concluir a solicitação. Tente novamente em instantes.',
        temporarily_unavailable:
          'O serviço de início de sessão está momentaneamente indisponível. Tente novamente em instantes.',
        other: 'Não foi possível concluir a solicitação da aplicação.',
      },
    },
  },
  lifecycle: lifecyclePt,
  mfa: mfaPt,
  passkeys: passkeysPt,
  account: accountPt,
};
