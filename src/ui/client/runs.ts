/** Drives a report run from a sidebar: short server steps until done, with progress and cancel. */
import type { RunProgress } from '../../core/report-runs';
import { server } from './rpc';

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

export function progressText(p: RunProgress): string {
  const rows = p.rows.toLocaleString('pt-BR');
  switch (p.status) {
    case 'running':
      return `Importando… ${p.pages} ${p.pages === 1 ? 'página' : 'páginas'}, ${rows} linhas até agora.`;
    case 'done':
      return p.incremental ? `Pronto: ${rows} registros novos ou alterados mesclados em "${p.sheetName}".` : `Pronto: ${rows} linhas em "${p.sheetName}".`;
    case 'cancelled':
      return `Cancelado com ${rows} linhas gravadas; a aba "${p.sheetName}" ficou marcada como incompleta.`;
    case 'failed':
      return `Falhou depois de ${rows} linhas: ${p.message ?? 'erro desconhecido'}. A aba ficou marcada como incompleta; use "Continuar" para retomar de onde parou.`;
  }
}
