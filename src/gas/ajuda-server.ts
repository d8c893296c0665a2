/** Ajuda: the first-run guide in a sidebar, and Sobre with the version. */
import { VERSION } from '../version';
import { showSidebar } from './ui';

export function showHelp(): void {
  showSidebar('Ajuda', 'Ajuda');
}

/** For the Ajuda sidebar's Sobre section. */
export function getAbout(): string {
  return `Faturamento para Planilhas Google, versão ${VERSION}. Conecta esta planilha ao serviço de faturamento (interface v2): importar listagens, relatórios agendados e lançamentos em lote. As chaves de API ficam só nas suas propriedades de usuário, nunca na planilha.`;
}

export function showAbout(): void {
  showSidebar('Sobre', 'Sobre');
}
