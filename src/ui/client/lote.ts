import { busy, byId, clearNotice, errorText, h, notice } from './dom';
import type { BulkProgress } from '../../core/bulk/state';
import { type Args, type Outcome, server } from './rpc';
import { plural } from '../../api/words';

// The server's own types: the sidebar shows exactly what the bundle returns.
type Progress = BulkProgress;
type BulkForm = Args<'startBulkRun'>[0];

const form = byId<HTMLFormElement>('form');
const status = byId('status');
const result = byId('result');
const summary = byId('summary');
const select = (name: string) => form.elements.namedItem(name) as HTMLSelectElement;
// Its options are the server's own operation keys.
const operation = () => select('operation').value as BulkForm['operation'];
const buttons = ['validate', 'run', 'continue', 'template'].map((id) => byId<HTMLButtonElement>(id));
let current: Progress | null = null;
let stopping = false;

function fill(el: HTMLSelectElement, options: Array<{ value: string; label: string }>, selected?: string): void {
  el.replaceChildren(...options.map((o) => h('option', { value: o.value, selected: o.value === selected }, o.label)));
}

function values(): BulkForm {
  const scope = (form.querySelector<HTMLInputElement>('input[name="scope"]:checked')?.value ?? 'all') as 'all' | 'selected';
  const batch = Number((form.elements.namedItem('batchSize') as HTMLInputElement).value);
  return {
    operation: operation(),
    sheetName: select('sheetName').value,
    connection: select('connection').value,
    scope,
    batchSize: Number.isFinite(batch) && batch > 0 ? batch : undefined,
  };
}

function showProgress(p: Progress): void {
  current = p;
  byId('progress-box').hidden = false;
  const bar = byId<HTMLProgressElement>('progress');
  bar.max = Math.max(p.total, 1);
  bar.value = p.processed;
  byId('progress-text').textContent = `${p.processed.toLocaleString('pt-BR')} de ${plural(p.total, 'linha processada', 'linhas processadas')}`;
  const c = p.counts;
  summary.hidden = false;
  const n = (v: number) => v.toLocaleString('pt-BR');
  const lines = [
    `Enviadas com sucesso: ${n(c.ok)}`,
    `Já existiam (nada enviado): ${n(c.existing)}`,
    `Puladas (já estavam OK): ${n(c.skipped)}`,
    `Com erro: ${n(c.failed)}`,
  ];
  if (c.pending) lines.push(`Pendentes (serão conferidas): ${n(c.pending)}`);
  summary.replaceChildren(...lines.map((l) => h('li', {}, l)));
  byId('failures').hidden = c.failed + c.pending === 0;
  byId('continue').hidden = p.status !== 'failed';
  byId('stop').hidden = p.done;
  const kind = p.status === 'done' ? (c.failed + c.pending ? 'warn' : 'ok') : p.status === 'running' ? 'info' : 'error';
  const text =
    p.status === 'running'
      ? `${p.label} em "${p.sheetName}"… ${p.message ?? ''}`
      : p.status === 'done'
        ? `Concluído: ${p.message ?? ''}`
        : p.status === 'cancelled'
          ? (p.message ?? 'Lote interrompido.')
          : `Parou: ${p.message ?? 'erro desconhecido'} Corrija o problema e clique em Continuar: o lote retoma de onde parou.`;
  notice(result, kind, [text, ...p.warnings].join(' '));
}

/** Short server steps until the job ends; each step checkpoints, so closing the sidebar loses nothing. */
async function drive(first: Outcome<Progress>): Promise<void> {
  if (!first.ok) {
    notice(result, 'error', first.message);
    return;
  }
  let p = first.value;
  showProgress(p);
  while (!p.done) {
    if (stopping) {
      const r = await server.cancelBulkRun(p.jobId);
      if (r.ok) showProgress(r.value);
      return;
    }
    const r = await server.continueBulkRun(p.jobId);
    if (!r.ok) {
      notice(result, 'error', `${r.message} Clique em Continuar para retomar.`);
      byId('continue').hidden = false;
      return;
    }
    p = r.value;
    showProgress(p);
  }
}

/** A new check or preview is not the last run: its progress and counts go, so no "2 de 2 linhas processadas" sits under it. */
function clearLastRun(): void {
  byId('progress-box').hidden = true;
  summary.hidden = true;
}

function lock(on: boolean): void {
  for (const b of buttons) b.disabled = on;
}

async function guarded(button: HTMLButtonElement, work: () => Promise<void>): Promise<void> {
  stopping = false;
  clearNotice(status);
  lock(true);
  try {
    await busy(button, work);
  } catch (err) {
    notice(result, 'error', errorText(err));
  } finally {
    lock(false);
    byId('stop').hidden = true;
  }
}

/** What a confirmed send does, in the operation's words: these writes cannot be undone. */
function consequence(n: number): string {
  const label = select('operation').selectedOptions[0]?.textContent ?? 'Lançamento';
  return `${label}: ${plural(n, 'linha será enviada', 'linhas serão enviadas')} ao serviço de faturamento. Isto não pode ser desfeito pelo complemento.`;
}

let pending: BulkForm | null = null;

function askConfirmation(form: BulkForm, v: { valid: number; invalid: number; untouched: number; repeats: string }): void {
  pending = form;
  const rest = [
    // Asked here, before anything is sent: each repeated row would be one more equal subscription.
    v.repeats ? `${v.repeats} Confirme só se quiser enviar as repetidas também.` : '',
    v.invalid ? `${plural(v.invalid, 'linha com problema será pulada', 'linhas com problemas serão puladas')} (veja a coluna Mensagem).` : '',
    v.untouched ? `${plural(v.untouched, 'linha já processada fica como está', 'linhas já processadas ficam como estão')}.` : '',
  ].filter(Boolean);
  byId('confirm-text').textContent = [consequence(v.valid), ...rest].join(' ');
  byId('confirm').hidden = false;
  byId<HTMLButtonElement>('confirm-send').focus();
}

function closeConfirmation(): void {
  pending = null;
  byId('confirm').hidden = true;
}

// Executar first validates and shows what would be sent; nothing irreversible happens before "Confirmar envio".
form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  closeConfirmation();
  clearLastRun();
  const v = values();
  void guarded(byId<HTMLButtonElement>('run'), async () => {
    notice(result, 'info', 'Validando as linhas…');
    const checked = await server.validateBulk(v);
    if (!checked.ok) return notice(result, 'error', checked.message);
    if (checked.value.valid > 0) {
      clearNotice(result);
      return askConfirmation(v, checked.value);
    }
    // Nothing new to send: the run only settles PENDENTE rows and reports, so it needs no confirmation.
    notice(result, 'info', 'Validando as linhas e começando o envio…');
    await drive(await server.startBulkRun(v));
  });
});

byId('confirm-send').addEventListener('click', () => {
  const v = pending;
  closeConfirmation();
  if (!v) return;
  void guarded(byId<HTMLButtonElement>('run'), async () => {
    notice(result, 'info', 'Validando as linhas e começando o envio…');
    await drive(await server.startBulkRun(v));
  });
});

byId('confirm-back').addEventListener('click', () => {
  closeConfirmation();
  notice(result, 'info', 'Nada foi enviado.');
});

byId('continue').addEventListener('click', () => {
  if (!current) return;
  const id = current.jobId;
  void guarded(byId<HTMLButtonElement>('continue'), async () => drive(await server.continueBulkRun(id)));
});

byId('stop').addEventListener('click', () => {
  stopping = true;
  notice(status, 'info', 'Parando depois do lote em andamento…');
});

byId('validate').addEventListener('click', () => {
  void guarded(byId<HTMLButtonElement>('validate'), async () => {
    const r = await server.validateBulk(values());
    if (!r.ok) return notice(result, 'error', r.message);
    const v = r.value;
    clearLastRun();
    byId('failures').hidden = v.invalid === 0;
    const head = v.invalid
      ? `${plural(v.invalid, 'linha com problema', 'linhas com problemas')} (veja a coluna Mensagem e as células em vermelho). ${plural(v.valid, 'linha pronta', 'linhas prontas')} para enviar.`
      : `${v.repeats ? '' : 'Tudo certo: '}${plural(v.valid, 'linha pronta', 'linhas prontas')} para enviar. Nada foi enviado.`;
    const rest = v.untouched ? ` ${plural(v.untouched, 'linha já processada ficou como estava', 'linhas já processadas ficaram como estavam')}.` : '';
    notice(result, v.invalid || v.repeats ? 'warn' : 'ok', [head + rest, v.repeats, ...v.problems.slice(0, 3), ...v.warnings].filter(Boolean).join(' '));
  });
});

byId('template').addEventListener('click', () => {
  void guarded(byId<HTMLButtonElement>('template'), async () => {
    // It reads the catalogs (products, plans) the columns' lists pick from: it can take a while.
    notice(result, 'info', 'Criando a aba modelo com os títulos, formatos e listas de opções… pode levar alguns segundos.');
    const r = await server.createBulkTemplate(operation());
    if (!r.ok) return notice(result, 'error', r.message);
    const sheets = [...select('sheetName').options].map((o) => o.value);
    fill(
      select('sheetName'),
      [...sheets, r.value.sheetName].map((s) => ({ value: s, label: s })),
      r.value.sheetName,
    );
    const catalogs = (r.value.catalogSheets ?? []).map((s) => `"${s}"`).join(' e ');
    const extra = [
      r.value.discountSheet ? ` Os descontos vão na aba "${r.value.discountSheet}", ligados pelo ID de integração da assinatura.` : '',
      catalogs
        ? ` Escolha o ID pelo nome na lista da coluna: ela vem da aba ${catalogs}, preenchida com as assinaturas importadas e atualizada a cada atualização delas.`
        : '',
    ].join('');
    notice(
      result,
      'ok',
      `Aba "${r.value.sheetName}" criada com uma linha de exemplo (ignorada no envio). Passe o mouse nos títulos para ver o que cada coluna espera.${extra}`,
    );
  });
});

byId('failures').addEventListener('click', () => {
  const v = values();
  const target = current ? { operation: current.operation, sheetName: current.sheetName } : v;
  void server
    .showBulkFailures(target.operation, target.sheetName)
    .then((r) => notice(status, r.ok ? 'info' : 'error', r.ok ? `${plural(r.value.rows, 'linha selecionada', 'linhas selecionadas')} na planilha.` : r.message))
    .catch((err) => notice(status, 'error', errorText(err)));
});

select('operation').addEventListener('change', () => {
  byId('template-hint').textContent = 'A aba modelo traz os títulos certos, formatos, listas de opções e uma linha de exemplo.';
});

server
  .getBulkForm()
  .then((f) => {
    fill(
      select('operation'),
      f.operations.map((o) => ({ value: o.key, label: o.label })),
      f.guessed ?? f.operations[0]?.key,
    );
    fill(
      select('sheetName'),
      f.sheets.map((s) => ({ value: s, label: s })),
      f.activeSheet,
    );
    fill(
      select('connection'),
      f.connections.map((c) => ({ value: c.name, label: c.name })),
      f.connections.find((c) => c.isDefault)?.name,
    );
    (form.elements.namedItem('batchSize') as HTMLInputElement).value = String(f.batchSize);
    if (f.suggestSelected) form.querySelector<HTMLInputElement>('input[name="scope"][value="selected"]')!.checked = true;
    if (f.connections.length === 0)
      notice(status, 'warn', 'Nenhuma conexão configurada: abra Faturamento › Conexões antes de executar (Validar funciona sem conexão).');
    const open = f.jobs[0];
    if (open?.altered) {
      // Its owner's own run, changed by someone in the hidden sheet: never continued; cancelling keeps it, stopped.
      showProgress(open);
      byId('continue').hidden = true;
      byId('stop').hidden = false;
      notice(
        status,
        'error',
        `O lote da aba "${open.sheetName}" foi alterado fora do complemento (alguém editou a aba oculta "Faturamento · dados") e não é executado. Só você pode corrigi-lo: clique em "Parar" (ele fica guardado como cancelado), confira a aba e execute de novo.`,
      );
      byId('stop').addEventListener(
        'click',
        () => void server.cancelBulkRun(open.jobId).then((r) => (r.ok ? showProgress(r.value) : notice(status, 'error', r.message))),
        {
          once: true,
        },
      );
    } else if (open && !open.mine) {
      // Someone else's run goes on only with their key, unless this user takes it over with a connection of their own.
      showProgress(open);
      byId('continue').hidden = true;
      notice(
        status,
        'warn',
        `Há um lote ${open.status === 'failed' ? 'interrompido' : 'em andamento'} na aba "${open.sheetName}" iniciado por ${open.owner ?? 'outro editor'}: só essa pessoa o continua, com a conexão dela. Para continuá-lo você, escolha a sua conexão acima e clique em "Assumir o lote" (as linhas restantes irão para a organização dessa conexão).`,
      );
      const take = h('button', { type: 'button', id: 'take-over' }, 'Assumir o lote');
      take.addEventListener('click', () =>
        busy(take, async () => {
          const id = f.connections.find((c) => c.name === select('connection').value)?.id ?? '';
          const r = await server.takeOverBulkRun(open.jobId, id);
          if (!r.ok) return notice(status, 'error', r.message);
          take.remove();
          showProgress(r.value);
          byId('continue').hidden = false;
          notice(status, 'ok', `O lote agora é seu, com a conexão ${select('connection').value}: clique em Continuar.`);
        }),
      );
      status.after(take);
    } else if (open) {
      showProgress(open);
      byId('continue').hidden = false;
      notice(
        status,
        'warn',
        `Há um lote ${open.status === 'failed' ? 'interrompido' : 'em andamento'} na aba "${open.sheetName}": clique em Continuar para retomá-lo.`,
      );
    } else if (f.last) {
      // A run that went on without the sidebar (closed mid-run, finished by the hourly run): how it ended.
      const last = f.last;
      showProgress(last);
      notice(
        status,
        'info',
        `Último lote: ${last.label} na aba "${last.sheetName}", ${last.status === 'cancelled' ? 'interrompido' : 'terminado'} em ${last.endedAt}${last.owner ? ` (iniciado por ${last.owner})` : ''}. Cada lote também fica registrado na aba Histórico.`,
      );
    }
  })
  .catch((err) => notice(status, 'error', errorText(err)));
