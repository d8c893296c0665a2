/** Drives a report run from a sidebar: short server steps until done, with progress and cancel. */
import type { RunProgress } from '../../core/report-runs';
import { server } from './rpc';
import { plural } from '../../api/words';

export type { RunProgress };

export interface RunControl {
  cancelled: boolean;
}

export async function driveRun(first: RunProgress, onProgress: (p: RunProgress) => void, control: RunControl): Promise<RunProgress> {
  let p = first;
  onProgress(p);
  while (!p.done) {
    if (control.cancelled) {
      p = await server.cancelReportRun(p.reportId);
      break;
    }
    p = await server.continueReportRun(p.reportId);
    onProgress(p);
  }
  onProgress(p);
  return p;
}

/** What to do after a failure that continuing cannot get past, from the service's words. */
export function whatToFix(message: string): string {
  if (/chave de API|HTTP 401|HTTP 403/i.test(message)) return 'Confira a chave da conexão (Faturamento › Conexões) ou escolha outra conexão e importe de novo.';
  if (/filtro|HTTP 400|recusou o pedido/i.test(message)) return 'Corrija os filtros e importe de novo.';
  if (/células/i.test(message)) return 'Use filtros para trazer menos linhas e importe de novo.';
  return 'Corrija o problema e importe de novo.';
}

function seconds(s: number): string {
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}

export function progressText(p: RunProgress): string {
  const rows = plural(p.rows, 'linha', 'linhas');
  switch (p.status) {
    case 'running': {
      const pages = plural(p.pages, 'página', 'páginas');
      const read = p.totalRows !== undefined ? `${p.rows.toLocaleString('pt-BR')} de ${plural(p.totalRows, 'linha', 'linhas')}` : rows;
      const left = p.etaSeconds !== undefined ? `; faltam cerca de ${seconds(p.etaSeconds)}` : '';
      return `Importando… ${pages}, ${read}${left}.`;
    }
    case 'done': {
      const done = p.incremental
        ? `Pronto: ${plural(p.rows, 'registro novo ou alterado mesclado', 'registros novos ou alterados mesclados')} em "${p.sheetName}".`
        : `Pronto: ${rows} em "${p.sheetName}".`;
      // A consolidated run in which some company failed says which and why.
      return p.message ? `${done} ${p.message}` : done;
    }
    case 'cancelled':
      return `Cancelado com ${plural(p.rows, 'linha gravada', 'linhas gravadas')}; a aba "${p.sheetName}" ficou marcada como incompleta.`;
    case 'failed': {
      const why = `Falhou depois de ${rows}: ${p.message ?? 'erro desconhecido'}.`;
      return p.canContinue ? `${why} A falha parece passageira: use "Continuar" para retomar de onde parou.` : `${why} ${whatToFix(p.message ?? '')}`;
    }
  }
}
