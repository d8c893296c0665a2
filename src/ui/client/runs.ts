/** Drives a report run from a sidebar: short server steps until done, with progress and cancel. */
import type { RunProgress } from '../../core/runs/progress';
import { server } from './rpc';
import { plural } from '../../api/words';

export type { RunProgress };

export interface RunControl {
  cancelled: boolean;
  /** The run's progress as last shown: a cancel names its run. */
  current?: RunProgress;
}

/** Seconds a step may keep the line still before it says it waits for the service, every second. */
const QUIET_SECONDS = 1;

/**
 * Steps the run to its end. While a step is out (a slow service), the line
 * still moves: after a couple of seconds it says how long it has waited.
 */
export async function driveRun(first: RunProgress, onProgress: (p: RunProgress, waited?: number) => void, control: RunControl): Promise<RunProgress> {
  let p = first;
  let since = Date.now();
  const show = (next: RunProgress) => {
    p = control.current = next;
    since = Date.now();
    onProgress(next);
  };
  const heartbeat = setInterval(() => {
    const waited = Math.round((Date.now() - since) / 1000);
    if (!p.done && !control.cancelled && waited > QUIET_SECONDS) onProgress(p, waited);
  }, 1000);
  try {
    show(first);
    while (!p.done) {
      if (control.cancelled) {
        p = await server.cancelReportRun(p.reportId, p.runId);
        break;
      }
      show(await server.continueReportRun(p.reportId));
    }
  } finally {
    clearInterval(heartbeat);
  }
  // A cancel that came after the run's last step: the run's own outcome stands, said as too late.
  if (control.cancelled && p.status !== 'cancelled') p = { ...p, cancelLate: true };
  show(p);
  return p;
}

/** Cancelar: the running step reads the request between waves; the sidebar cancels for good as soon as that step returns. */
export function cancelRun(control: RunControl): void {
  control.cancelled = true;
  const p = control.current;
  if (p && !p.done) void server.requestCancelReportRun(p.reportId, p.runId).catch(() => undefined);
}

/** What a cancel says while the run stops. */
export const CANCELLING = 'Cancelando: a importação para em alguns segundos…';

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

/** The progress line; `waited`: seconds the current step has been out, shown once the service is slow to answer. */
export function progressText(p: RunProgress, waited?: number): string {
  const rows = plural(p.rows, 'linha', 'linhas');
  const late = p.cancelLate ? 'O cancelamento chegou tarde: a importação já tinha terminado. ' : '';
  switch (p.status) {
    case 'running': {
      const pages = plural(p.pages, 'página', 'páginas');
      const read = p.totalRows !== undefined ? `${p.rows.toLocaleString('pt-BR')} de ${plural(p.totalRows, 'linha', 'linhas')}` : rows;
      const left = p.etaSeconds !== undefined ? `; faltam cerca de ${seconds(p.etaSeconds)}` : '';
      const waiting = waited ? ` Aguardando o serviço há ${seconds(waited)}…` : '';
      return `Importando… ${pages}, ${read}${left}.${waiting}`;
    }
    case 'done': {
      const done = p.incremental
        ? `Pronto: ${plural(p.rows, 'registro novo ou alterado mesclado', 'registros novos ou alterados mesclados')} em "${p.sheetName}".`
        : `Pronto: ${rows} em "${p.sheetName}".`;
      // A consolidated run in which some company failed says which and why.
      return late + (p.message ? `${done} ${p.message}` : done);
    }
    case 'cancelled':
      return `Cancelado com ${plural(p.rows, 'linha gravada', 'linhas gravadas')}; a aba "${p.sheetName}" ficou marcada como incompleta. Use "Continuar" para retomar de onde parou.`;
    case 'failed': {
      const why = `${late}Falhou depois de ${rows}: ${p.message ?? 'erro desconhecido'}.`;
      return p.canContinue ? `${why} A falha parece passageira: use "Continuar" para retomar de onde parou.` : `${why} ${whatToFix(p.message ?? '')}`;
    }
  }
}
