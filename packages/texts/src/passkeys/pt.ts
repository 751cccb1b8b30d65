import type { Texts } from '../en.ts';

export const passkeysPt: Texts['passkeys'] = {
  titles: {
    offer: 'Inicie sessão mais depressa da próxima vez',
    stepUp: 'Confirmar com uma chave de acesso',
    created: 'Chave de acesso criada',
  },
  offer: {
    heading: 'Inicie sessão mais depressa da próxima vez com uma chave de acesso',
    body: 'Com uma chave de acesso, inicia sessão com a impressão digital, o rosto ou o bloqueio de ecrã em vez da senha. Fica guardada no seu dispositivo ou no seu gestor de senhas e só funciona neste site, por isso ninguém o pode enganar para a entregar.',
    create: 'Criar uma chave de acesso',
    notNow: 'Agora não',
    created: 'A sua chave de acesso está pronta. Da próxima vez, escolha-a ao iniciar sessão.',
    continue: 'Continuar',
  },
  stepUp: {
    heading: 'Confirmar com uma chave de acesso',
    body: '{{app}} pede-lhe que confirme com uma chave de acesso ou uma chave de segurança. A sua senha não serve para isto.',
    bodyNoApp:
      'Esta aplicação pede-lhe que confirme com uma chave de acesso ou uma chave de segurança. A sua senha não serve para isto.',
    confirm: 'Confirmar com uma chave de acesso',
    none: 'A sua conta ainda não tem nenhuma chave de acesso nem chave de segurança para este site. Adicione uma na página da sua conta e tente novamente a partir da aplicação.',
    account: 'Ir para a página da sua conta',
  },
  mfa: {
    heading: 'Confirme que é você',
    intro: 'Use a chave de acesso ou a chave de segurança que adicionou à sua conta.',
    elsewhere:
      'A sua chave de acesso ou chave de segurança só funciona no site onde a criou: {{domains}}. Inicie sessão aí para a usar.',
    option: 'Usar a sua chave de acesso ou chave de segurança',
  },
  waiting: 'À espera da sua chave de acesso…',
  errors: {
    cancelled: 'Não foi usada nenhuma chave de acesso. Tente novamente quando estiver pronto.',
    exists: 'Este dispositivo já tem uma chave de acesso para a sua conta.',
    limit:
      'A sua conta já tem o número máximo de chaves de acesso. Remova uma na página da sua conta para adicionar outra.',
    failed:
      'Não foi possível verificar esta chave de acesso ou chave de segurança. Tente novamente ou use outra.',
    expired: 'O pedido expirou. Tente novamente.',
    unsupported: 'Este navegador ou dispositivo não consegue usar uma chave de acesso aqui.',
    rateLimited: 'Demasiadas tentativas com chaves de acesso. Aguarde alguns minutos e tente novamente.',
    notFound: 'A sua conta não tem nenhuma chave de acesso nem chave de segurança que funcione neste site.',
    signInAgain:
      'O seu início de sessão já não é recente o suficiente para adicionar uma chave de acesso. Continue e adicione uma mais tarde na página da sua conta.',
    unknown: 'Ocorreu um erro. Tente novamente.',
  },
};
