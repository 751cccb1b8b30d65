import type { Texts } from '../en.ts';

export const lifecyclePt: Texts['lifecycle'] = {
  titles: {
    activate: 'Ativar a sua conta',
    register: 'Criar a sua conta',
    activateSent: 'E-mail de ativação enviado',
    activateExpired: 'Link de ativação expirado',
    resetPassword: 'Redefinir a sua senha',
    resetPasswordSent: 'E-mail de redefinição enviado',
    resetPasswordUpdate: 'Definir uma nova senha',
    verifyEmail: 'Verificar o seu e-mail',
    verifyExpired: 'Link de verificação expirado',
    passwordExpired: 'Senha expirada',
    passwordWillExpire: 'A senha expira em breve',
  },
  passwordForm: {
    password: 'Nova senha',
    confirmPassword: 'Confirmar a nova senha',
    hint: 'Use pelo menos 8 caracteres, com letras maiúsculas e minúsculas e um número.',
    secretQuestion: 'Pergunta de segurança',
    chooseQuestion: 'Escolha uma pergunta',
    secretAnswer: 'Resposta de segurança',
    errors: {
      format: 'Deve conter letras maiúsculas e minúsculas, um número e ter pelo menos 8 caracteres',
      mismatch: 'As senhas não coincidem',
      history: 'A nova senha não pode ser igual a nenhuma das suas últimas quatro senhas.',
      leaked: 'Esta senha aparece em violações de dados conhecidas e não é segura. Escolha outra.',
    },
  },
  secretQuestions: {
    motherMaidenName: 'Qual é o nome de solteira da sua mãe?',
    fatherMiddleName: 'Qual é o segundo nome do seu pai?',
    townWhereBorn: 'Em que cidade nasceu?',
    firstOverseasTrip: 'Qual foi o destino da sua primeira viagem ao exterior?',
    firstSchool: 'Qual era o nome da sua primeira escola?',
    firstPetName: 'Qual era o nome do seu primeiro animal de estimação?',
  },
  activate: {
    checking: 'Verificando o seu link de ativação…',
    heading: 'Ativar a sua conta',
    intro:
      'Escolha uma senha e uma pergunta de segurança para {{email}}. Se nos contactar para pedir ajuda, faremos esta pergunta para confirmar que é mesmo você. Nunca lhe pediremos a senha.',
    submit: 'Ativar conta',
  },
  register: {
    checking: 'Verificando o seu link de cadastro…',
    heading: 'Criar a sua conta',
    intro: 'Escolha uma senha e uma pergunta de segurança para {{email}}.',
    submit: 'Criar conta',
    signingIn: 'Iniciando sessão…',
    invalid: {
      heading: 'Este link de cadastro não é válido',
      body: 'O link pode ter expirado ou já ter sido usado. Peça um novo à pessoa que o enviou.',
    },
  },
  activateSent: {
    heading: 'Verifique a sua caixa de entrada',
    body: {
      one: 'Se a sua conta estiver aguardando ativação, enviamos um novo link de ativação para o seu endereço de e-mail. O link é válido por {{count}} dia.',
      many: 'Se a sua conta estiver aguardando ativação, enviamos um novo link de ativação para o seu endereço de e-mail. O link é válido por {{count}} de dias.',
      other:
        'Se a sua conta estiver aguardando ativação, enviamos um novo link de ativação para o seu endereço de e-mail. O link é válido por {{count}} dias.',
    },
    help: 'Não recebeu o e-mail? Verifique a pasta de spam ou fale com o suporte.',
  },
  activateExpired: {
    heading: 'Este link de ativação expirou',
    body: 'Insira o seu endereço de e-mail e enviaremos um novo link de ativação.',
    email: 'E-mail',
    submit: 'Enviar um novo link',
  },
  resetRequest: {
    heading: 'Redefinir a sua senha',
    intro: 'Insira o endereço de e-mail da sua conta e enviaremos um link para redefinir a sua senha.',
    email: 'E-mail',
    submit: 'Enviar link de redefinição',
    tokenExpired: 'Esse link de redefinição de senha expirou. Solicite um novo.',
  },
  resetSent: {
    heading: 'Verifique a sua caixa de entrada',
    body: {
      one: 'Se existir uma conta para {{email}}, enviamos um link para redefinir a senha. O link é válido por {{count}} minuto.',
      many: 'Se existir uma conta para {{email}}, enviamos um link para redefinir a senha. O link é válido por {{count}} de minutos.',
      other:
        'Se existir uma conta para {{email}}, enviamos um link para redefinir a senha. O link é válido por {{count}} minutos.',
    },
    bodyWithoutEmail: {
      one: 'Se existir uma conta para o endereço inserido, enviamos um link para redefinir a senha. O link é válido por {{count}} minuto.',
      many: 'Se existir uma conta para o endereço inserido, enviamos um link para redefinir a senha. O link é válido por {{count}} de minutos.',
      other:
        'Se existir uma conta para o endereço inserido, enviamos um link para redefinir a senha. O link é válido por {{count}} minutos.',
    },
    resend: 'Enviar o e-mail novamente',
    resent: 'Enviamos o e-mail novamente.',
    trouble: 'Problemas ao iniciar sessão?',
  },
  resetUpdate: {
    checking: 'Verificando o seu link…',
    heading: 'Definir uma nova senha',
    intro: 'Escolha uma nova senha para {{email}}.',
    submit: 'Alterar senha',
  },
  verifyEmail: {
    checking: 'Validando o seu link de verificação…',
    heading: 'Verificar o seu e-mail',
    intro: 'Insira o seu endereço de e-mail para confirmar que ele lhe pertence.',
    email: 'E-mail',
    submit: 'Verificar e-mail',
    mismatch: 'Este e-mail não corresponde aos nossos registros. Tente novamente.',
    success: 'O seu endereço de e-mail foi verificado. Redirecionando…',
  },
  verifyExpired: {
    heading: 'Este link de verificação expirou',
    body: {
      one: 'Os links de verificação são válidos por {{count}} hora e funcionam uma única vez. Inicie sessão novamente para solicitar um novo.',
      many: 'Os links de verificação são válidos por {{count}} de horas e funcionam uma única vez. Inicie sessão novamente para solicitar um novo.',
      other:
        'Os links de verificação são válidos por {{count}} horas e funcionam uma única vez. Inicie sessão novamente para solicitar um novo.',
    },
  },
  passwordExpired: {
    heading: 'A sua senha expirou',
  },
  passwordWillExpire: {
    heading: 'A sua senha expirará em breve',
    today: 'A sua senha expira hoje.',
    tomorrow: 'A sua senha expira amanhã.',
    inDays: {
      one: 'A sua senha expira em {{count}} dia.',
      many: 'A sua senha expira em {{count}} de dias.',
      other: 'A sua senha expira em {{count}} dias.',
    },
    resetLater: 'Redefinir mais tarde',
  },
  verificationPrompt: {
    heading: 'Verificar o seu e-mail',
    body: {
      one: 'Antes de continuar, confirme que {{email}} é o seu endereço de e-mail. Enviaremos um link de verificação válido por {{count}} hora.',
      many: 'Antes de continuar, confirme que {{email}} é o seu endereço de e-mail. Enviaremos um link de verificação válido por {{count}} de horas.',
      other:
        'Antes de continuar, confirme que {{email}} é o seu endereço de e-mail. Enviaremos um link de verificação válido por {{count}} horas.',
    },
    send: 'Enviar e-mail de verificação',
    sentHeading: 'Verifique a sua caixa de entrada',
    sentBody: 'Enviamos um link de verificação para {{email}}. Abra-o para continuar.',
    notReceived: 'Não recebi o e-mail',
    logout: 'Terminar sessão',
  },
  sessionDialog: {
    heading: 'Termine a sessão primeiro',
    body: 'A sua sessão está iniciada. Para usar este link, é necessário terminar a sessão primeiro.',
    confirm: 'Terminar sessão',
  },
  errors: {
    rateLimited: 'Foram feitas solicitações demais. Aguarde alguns minutos e tente novamente.',
    rateLimitedNetwork: 'Demasiados pedidos a partir da sua rede. Tente novamente {{when}}.',
    rateLimitedVerification: 'Já lhe enviámos vários e-mails de verificação. Pode pedir outro {{when}}.',
    captcha:
      'Não foi possível confirmar que esta solicitação foi feita por uma pessoa. Recarregue a página e tente novamente.',
  },
  mail: {
    linkHint: 'Se o botão não funcionar, copie este link para o seu navegador:',
    footer: 'Este e-mail foi enviado por {{tenant}}.',
    activation: {
      subject: 'Ative a sua conta {{tenant}}',
      heading: 'Ative a sua conta',
      body: 'Foi criada uma conta para você em {{tenant}}. Escolha a sua senha para ativá-la.',
      action: 'Ativar conta',
      expiry: 'Este link é válido por {{days}} dias e funciona uma única vez.',
      ignore: 'Se não esperava este convite, pode ignorar este e-mail.',
    },
    reset: {
      subject: 'Redefina a sua senha {{tenant}}',
      heading: 'Redefina a sua senha',
      body: 'Recebemos uma solicitação para redefinir a senha da sua conta {{tenant}}.',
      action: 'Redefinir senha',
      expiry: 'Este link é válido por {{minutes}} minutos e funciona uma única vez.',
      ignore: 'Se não fez esta solicitação, pode ignorar este e-mail: a sua senha permanece a mesma.',
    },
    verifyEmail: {
      subject: 'Verifique o seu endereço de e-mail para {{tenant}}',
      heading: 'Verifique o seu endereço de e-mail',
      body: 'Confirme que este é o endereço de e-mail da sua conta {{tenant}}.',
      action: 'Verificar e-mail',
      expiry: 'Este link é válido por {{hours}} horas e funciona uma única vez.',
      ignore: 'Se não fez esta solicitação, pode ignorar este e-mail.',
    },
    partnerLinksRemoved: {
      subject: 'Inícios de sessão de parceiros removidos da sua conta {{tenant}}',
      heading: 'Inícios de sessão de parceiros removidos',
      body: 'A sua conta {{tenant}} foi criada ou associada através da aplicação de um parceiro antes de a reclamar. Agora que o fez, estes parceiros já não podem iniciar sessão nela:',
      relink:
        'Se utiliza um destes parceiros, inicie sessão com a sua palavra-passe e associe-o novamente a partir da sua conta.',
      action: 'Iniciar sessão',
      notYou:
        'Se não acabou de repor a palavra-passe nem de verificar o seu endereço, contacte o seu administrador.',
    },
  },
};
