/**
 * The bar of structural edits under the formula bar: insert and delete rows
 * and columns at the selection, sort the sheet by the selected column, rename
 * and delete the active tab. The server applies each through the emulator's
 * Spreadsheet API (dev/playground/structure.ts), so metadata moves as in Sheets.
 */
import type { ActionReply } from './api';
import { byId, h } from './dom';

type Act = (body: { action: string; name?: string }) => Promise<ActionReply>;

const BUTTONS: Array<[action: string, label: string]> = [
  ['inserirLinhaAcima', 'Inserir linha acima'],
  ['excluirLinha', 'Excluir linha'],
  ['inserirColunaEsquerda', 'Inserir coluna à esquerda'],
  ['excluirColuna', 'Excluir coluna'],
  ['classificarAZ', 'Classificar A→Z'],
  ['classificarZA', 'Classificar Z→A'],
  ['renomearAba', 'Renomear aba'],
  ['excluirAba', 'Excluir aba'],
];

/** Its own few rules, kept here with the bar so the page's stylesheet stays as it was. */
const STYLE = `
#structure-bar { display: flex; flex-wrap: wrap; gap: 4px; padding: 3px 8px; background: #fff; border-top: 1px solid #e1e3e1; font-size: 12px; }
#structure-bar button { font: inherit; padding: 2px 8px; border: 1px solid #c7c7c7; border-radius: 4px; background: #f8f9fa; cursor: pointer; }
#structure-bar button:hover { background: #e8eaed; }
`;

function activeTabName(): string {
  return document.querySelector('#tabs [role="tab"][aria-selected="true"]')?.textContent?.trim() ?? '';
}

export function initStructureBar(act: Act, failed: (message: string) => void): void {
  document.head.append(h('style', {}, STYLE));
  const bar = h(
    'div',
    { id: 'structure-bar', role: 'toolbar', 'aria-label': 'Linhas, colunas e abas' },
    ...BUTTONS.map(([action, label]) =>
      h(
        'button',
        {
          type: 'button',
          'data-action': action,
          onclick: () => {
            let name: string | undefined;
            if (action === 'renomearAba') {
              const typed = window.prompt('Novo nome da aba', activeTabName());
              if (typed === null) return;
              name = typed;
            }
            if (action === 'excluirAba' && !window.confirm(`Excluir a aba "${activeTabName()}"?`)) return;
            void act({ action, ...(name === undefined ? {} : { name }) }).then((r) => {
              if (!r.ok) failed(r.error?.message ?? 'Erro desconhecido');
            });
          },
        },
        label,
      ),
    ),
  );
  byId('formulabar').after(bar);
}
