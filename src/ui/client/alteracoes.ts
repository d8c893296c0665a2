import type { BulkProgress } from '../../core/bulk/state';
import type { EditPreview } from '../../core/bulk/edits';
import { busy, byId, clearNotice, errorText, h, notice } from './dom';
import { type Outcome, server } from './rpc';
import { plural } from '../../api/words';

const form = byId<HTMLFormElement>('form');
const sheet = form.elements.namedItem('sheetName') as HTMLSelectElement;
const result = byId('result');
const send = byId<HTMLButtonElement>('send');
const money = (n: number) => n.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
/** The preview the owner sees: Enviar sends exactly its rows and values. */
let previewed: EditPreview | null = null;
const cellChanges = (fields: EditPreview['rows'][number]['fields']) =>
  fields.map((f) => `${f.label} ${f.before || '(vazio)'} → ${f.after || '(vazio)'}`).join('; ');

function showPreview(p: EditPreview): void {
  byId('preview-box').hidden = false;
  const valid = p.count - p.invalid;
  byId('totals').replaceChildren(
    ...[
      `Linhas alteradas: ${p.count.toLocaleString('pt-BR')}${p.invalid ? ` (${plural(p.invalid, 'com problema', 'com problemas')}, não ${p.invalid === 1 ? 'será enviada' : 'serão enviadas'})` : ''}`,
      `Valor antes: ${money(p.totals.before)}`,
      `Valor depois: ${money(p.totals.after)}`,
      `Diferença: ${money(p.totals.difference)}`,
    ].map((t) => h('li', {}, t)),
  );
  byId('changes').replaceChildren(
    ...p.rows.map((r) =>
      h('li', { className: r.problem ? 'invalid' : '' }, `Linha ${r.row} · ID ${r.id}: ${cellChanges(r.fields)}${r.problem ? ` — ${r.problem}` : ''}`),
    ),
    ...(p.more ? [h('li', {}, `…e mais ${plural(p.more, 'linha', 'linhas')}.`)] : []),
  );
  byId('unsent-box').hidden = p.unsent.length === 0;
  byId('unsent').replaceChildren(
    ...p.unsent.map((u) => h('li', { className: 'invalid' }, `Linha ${u.row} · ID ${u.id}: ${cellChanges(u.fields)} — não será enviada: ${u.why}.`)),
    ...(p.unsentMore ? [h('li', {}, `…e mais ${plural(p.unsentMore, 'linha', 'linhas')}.`)] : []),
  );
  send.hidden = valid === 0;
  send.textContent = `Enviar ${plural(valid, 'alteração', 'alterações')}`;
  if (p.count === 0 && p.unsent.length === 0) notice(result, 'ok', 'Nenhuma alteração para enviar: a aba está igual ao que foi importado por último.');
  else if (p.count === 0)
    notice(
      result,
      'warn',
      `Nenhuma alteração que o serviço aceite: ${plural(p.unsent.length + p.unsentMore, 'linha tem células editadas que não serão enviadas', 'linhas têm células editadas que não serão enviadas')} (veja por quê acima).`,
    );
}

function showProgress(p: BulkProgress): void {
  byId('progress-box').hidden = p.total === 0;
  const bar = byId<HTMLProgressElement>('progress');
  bar.max = Math.max(p.total, 1);
  bar.value = p.processed;
  byId('progress-text').textContent = `${p.processed.toLocaleString('pt-BR')} de ${plural(p.total, 'linha processada', 'linhas processadas')}`;
  const kind = p.status === 'done' ? (p.counts.failed + p.counts.pending ? 'warn' : 'ok') : p.status === 'running' ? 'info' : 'error';
  notice(result, kind, [p.status === 'running' ? 'Enviando…' : (p.message ?? ''), ...p.warnings].join(' '));
}

/** Steps until the push ends; each step checkpoints, so closing the sidebar loses nothing (the hourly run finishes it). */
async function drive(first: Outcome<BulkProgress>): Promise<void> {
  if (!first.ok) return notice(result, 'error', first.message);
  let p = first.value;
  showProgress(p);
  while (!p.done) {
    const r = await server.continueBulkRun(p.jobId);
    if (!r.ok) return notice(result, 'error', r.message);
    p = r.value;
    showProgress(p);
  }
  send.hidden = true;
}

async function guarded(button: HTMLButtonElement, work: () => Promise<void>): Promise<void> {
  clearNotice(result);
  try {
    await busy(button, work);
  } catch (err) {
    notice(result, 'error', errorText(err));
  }
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  void guarded(byId<HTMLButtonElement>('preview'), async () => {
    const r = await server.previewSheetEdits(sheet.value);
    if (!r.ok) {
      byId('preview-box').hidden = true;
      return notice(result, 'error', r.message);
    }
    previewed = r.value;
    showPreview(r.value);
  });
});

send.addEventListener('click', () => {
  const seen = previewed;
  if (seen) void guarded(send, async () => drive(await server.startEditPushRun(seen.sheetName, seen.token)));
});
// A preview is of one sheet as it was: another sheet needs its own.
sheet.addEventListener('change', () => {
  previewed = null;
  byId('preview-box').hidden = true;
});

void (async () => {
  try {
    const f = await server.getEditForm();
    sheet.replaceChildren(...f.sheets.map((name) => h('option', { value: name, selected: name === f.activeSheet }, name)));
    if (f.sheets.length === 0)
      notice(byId('status'), 'info', 'Nenhuma aba importada de Assinaturas e contratos: importe as assinaturas por Importar dados primeiro.');
  } catch (err) {
    notice(byId('status'), 'error', errorText(err));
  }
})();
