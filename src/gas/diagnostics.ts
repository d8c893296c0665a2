/**
 * Faturamento › Diagnóstico (ajuda): on a real deployment, checks the assumptions about
 * Google that no emulator can prove, and writes what it saw in a
 * "Diagnóstico" sheet (assumption, observed, verdict). docs/deploy.md says
 * when to run it.
 */
import { plural } from '../api/words';
import { checkConnection } from '../core/connections/connection-check';
import { type ConnectionView, hostProblem } from '../core/connections/connections';
import { AgendaStore } from '../core/hourly/agenda';
import { ownWork, wantsDispatcher, DISPATCHERS_PER_OWNER } from '../core/hourly/dispatch';
import { chunkFilesRow } from './chunk-file';
import { accountRows } from './diagnostic-account';
import { fetchCosts, openOtherCost, writeCosts } from './diagnostic-measures';
import { attempt, HEADER, type Row } from './diagnostic-row';
import { startupRows } from './diagnostic-startup';
import { readWork } from './dispatcher';
import { DISPATCHER_HANDLERS, ours } from './triggers';
import { executionStarted } from './execution-limit';
import { type HourlyRunSeen, LAST_RUN_KEY } from './run-seen';
import { allowedBaseUrls, clientFor, connectionStore, currentUser, documentId, documentView, ownerStore, spreadsheetTimeZone, userStore } from './services';

export const DIAGNOSTICS_SHEET = 'Diagnóstico';

function textStaysText(sheet: GoogleAppsScript.Spreadsheet.Sheet): Row {
  return attempt('Uma célula com formato de texto (@) guarda "=1+1" e "01234567000189" como texto', () => {
    const range = sheet.getRange(1, 5, 1, 2);
    range.setNumberFormat('@').setValues([['=1+1', '01234567000189']]);
    SpreadsheetApp.flush();
    const [[a, b]] = range.getValues();
    const formula = range.getFormulas()[0][0];
    range.clear();
    const ok = a === '=1+1' && formula === '' && b === '01234567000189';
    return [`valores lidos: ${JSON.stringify(a)}, ${JSON.stringify(b)}; fórmula: ${JSON.stringify(formula)}`, ok ? 'OK' : 'FALHA'];
  });
}

function dateInZone(sheet: GoogleAppsScript.Spreadsheet.Sheet): Row {
  const zone = spreadsheetTimeZone();
  return attempt(`Uma data gravada aparece no fuso da planilha (${zone})`, () => {
    const range = sheet.getRange(1, 5);
    // Midday of 15/01/2026 in the spreadsheet's zone, built through Utilities so the zone is Google's own.
    const instant = Utilities.parseDate('2026-01-15 12:00:00', zone, 'yyyy-MM-dd HH:mm:ss');
    range.setNumberFormat('dd/mm/yyyy').setValue(instant);
    SpreadsheetApp.flush();
    const shown = range.getDisplayValue();
    const back = range.getValue() as Date;
    range.clear();
    const ok = shown === '15/01/2026' && back instanceof Date && Math.abs(back.getTime() - instant.getTime()) < 24 * 3_600_000;
    return [`exibida como ${shown}; lida de volta ${back instanceof Date ? back.toISOString() : String(back)}`, ok ? 'OK' : 'FALHA'];
  });
}

/** What the last hourly run saw of the document: reported as seen, since the add-on works either way (it opens each document by id). */
function lastHourlyRun(): Row {
  return attempt('O que a última execução de hora em hora viu do documento (planilha ativa, propriedades do documento, bloqueio do documento)', () => {
    const raw = userStore().get(LAST_RUN_KEY);
    if (!raw)
      return [
        'nenhuma execução de hora em hora registrada para você ainda (uma implantação de teste nunca executa gatilhos): agende um relatório num complemento instalado, espere uma hora e rode o diagnóstico de novo',
        'VERIFICAR',
      ];
    const seen = JSON.parse(raw) as HourlyRunSeen;
    const yes = (b: boolean) => (b ? 'sim' : 'não');
    return [
      `em ${Utilities.formatDate(new Date(seen.at), spreadsheetTimeZone(), 'dd/MM/yyyy HH:mm')}: planilha ativa ${yes(seen.activeSpreadsheet)}, propriedades do documento ${yes(seen.documentProperties)}, bloqueio do documento ${yes(seen.documentLock)}`,
      'INFO',
    ];
  });
}

/** Local addresses pass the connection form (for the sandbox), but Google's servers cannot reach them: outside the manifest's list. */
const isLocal = (url: string) => hostProblem(url, []) === null;
const outsideAllowList = (url: string, allowed: readonly string[] | null) => isLocal(url) || hostProblem(url, allowed ?? []) !== null;

/** The manifest's allow-list, judged by the connections it has to serve: each one outside it is named. */
function allowList(allowed: readonly string[] | null, connections: readonly ConnectionView[]): Row {
  const assumption = 'As conexões estão na lista de endereços permitidos desta publicação (urlFetchWhitelist)';
  const listed = `permitidos: ${(allowed ?? []).join(', ') || 'nenhum'}`;
  if (connections.length === 0) return [assumption, `${listed}; nenhuma conexão para conferir: adicione uma em Conexões`, 'VERIFICAR'];
  const outside = connections.filter((c) => outsideAllowList(c.baseUrl, allowed));
  if (outside.length === 0)
    return [
      assumption,
      `${listed}; ${connections.length === 1 ? 'a conexão está' : `todas as ${plural(connections.length, 'conexão', 'conexões')} estão`} na lista`,
      'OK',
    ];
  const named = outside.map((c) => `"${c.name}" (${c.baseUrl}${isLocal(c.baseUrl) ? ', endereço local que o Google não alcança' : ''})`).join(', ');
  return [
    assumption,
    `${listed}; fora da lista: ${named}. O Google recusa pedidos a esses endereços: troque o endereço da conexão em Conexões ou peça ao administrador que o inclua na publicação (addon.config.json)`,
    outside.length === connections.length ? 'FALHA' : 'AVISO',
  ];
}

function listConnections(): ConnectionView[] {
  try {
    return connectionStore().list();
  } catch {
    return [];
  }
}

function hostsReachable(allowed: readonly string[] | null, connections: readonly ConnectionView[]): Row[] {
  const rows: Row[] = [allowList(allowed, connections)];
  for (const c of connections) {
    rows.push(
      attempt(`A conexão "${c.name}" (${c.baseUrl}) responde`, () => {
        const blocked = hostProblem(c.baseUrl, allowed);
        if (blocked) return [blocked, 'FALHA'];
        const result = checkConnection(clientFor(c, { timeoutMs: 15_000, retries: 0 }), () => Date.now());
        return [result.message, result.ok ? 'OK' : 'FALHA'];
      }),
    );
  }
  return rows;
}

/** Where the fetches are timed: the first connection the add-on would call, else the first host the manifest allows. */
function measuredHost(allowed: readonly string[] | null, connections: readonly ConnectionView[]): string | null {
  return connections.find((c) => hostProblem(c.baseUrl, allowed) === null)?.baseUrl ?? allowed?.[0] ?? null;
}

/** A document with work and no trigger of its own: served by the user's runs elsewhere when the agenda has it, else never. */
function withoutOwnTrigger(seen: string, id: string): [string, 'OK' | 'AVISO' | 'FALHA'] {
  const elsewhere = ScriptApp.getProjectTriggers().filter((t) => DISPATCHER_HANDLERS.includes(t.getHandlerFunction())).length;
  const onAgenda = new AgendaStore(userStore()).read()?.[id] !== undefined;
  if (!onAgenda || elsewhere === 0)
    return [`${seen}: sem gatilho, nada disso anda sozinho; abra Relatórios e salve o agendamento de novo para o complemento criá-lo`, 'FALHA'];
  const served = `as execuções de hora em hora das suas outras planilhas (${elsewhere} gatilho(s)) atendem esta quando algo vence aqui`;
  if (elsewhere >= DISPATCHERS_PER_OWNER)
    return [
      `${seen}: sem gatilho próprio, pois o complemento mantém ${DISPATCHERS_PER_OWNER} por pessoa, que atendem todas as suas planilhas; ${served}`,
      'OK',
    ];
  return [`${seen}: sem gatilho próprio; ${served}. Para ela ter o seu, abra Relatórios e salve o agendamento de novo`, 'AVISO'];
}

/** The running user's hourly trigger here, against the work they own here: a schedule with no trigger and no other run to serve it never runs. */
function ownTrigger(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): Row {
  return attempt('Você tem um gatilho de hora em hora nesta planilha enquanto tem agendamentos ou execuções inacabadas aqui, e só um', () => {
    const owners = ownerStore();
    const work = ownWork(readWork(documentView(ss)), owners.checker(currentUser(owners), documentId(ss)));
    const wanted = wantsDispatcher(work);
    const triggers = ours(ss).length;
    const unfinished = work.pulls.filter((j) => j.state.status === 'running').length + work.bulk.filter((j) => j.status === 'running').length;
    const seen = `${triggers} gatilho(s); seus aqui: ${work.reports.filter((r) => r.schedule).length} relatório(s) agendado(s), ${unfinished} execução(ões) inacabada(s)`;
    if (triggers > 1) return [`${seen}: sobra gatilho; abra Relatórios e salve um agendamento para o complemento refazê-lo`, 'FALHA'];
    if (wanted && triggers === 0) return withoutOwnTrigger(seen, documentId(ss));
    return [seen, 'OK'];
  });
}

const NOT_HERE: Row[] = [
  [
    'Uma chamada sem resposta termina em cerca de 60 s, com o erro "Timeout"',
    'não observado: provocar exige um serviço que trave; o complemento planeja com 60 s por chamada',
    'VERIFICAR',
  ],
  [
    'Gravações não salvas sobrevivem a uma execução interrompida aos 6 minutos',
    'não observado: provocar exige interromper uma execução; o complemento grava um ponto de retomada depois de cada bloco e nunca depende disso',
    'VERIFICAR',
  ],
];

/** Menu handler: runs every check and writes the Diagnóstico sheet. */
export function runDiagnostics(): void {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = ss.getSheetByName(DIAGNOSTICS_SHEET) ?? ss.insertSheet(DIAGNOSTICS_SHEET);
  sheet.clear();
  const allowed = allowedBaseUrls();
  const connections = listConnections();
  const rows: Row[] = [
    textStaysText(sheet),
    dateInZone(sheet),
    lastHourlyRun(),
    ownTrigger(ss),
    ...hostsReachable(allowed, connections),
    ...accountRows(),
    ...startupRows(),
    ...writeCosts(sheet),
    openOtherCost(documentId(ss)),
    ...fetchCosts(measuredHost(allowed, connections)),
    [
      'Tempo desta execução desde a primeira linha do complemento até aqui',
      `${Date.now() - executionStarted()} ms, sem a partida (o tempo antes da primeira linha, que nenhuma execução mede de si; veja a linha da partida)`,
      'INFO',
    ],
    // Reaching this line proves it: this file is one of the chunks kept in the project's files (dev/build/lazy-chunks.ts).
    ['O código que o pacote guarda como texto é compilado quando usado (new Function)', 'sim: este diagnóstico é uma dessas partes', 'OK'],
    chunkFilesRow(),
    ...NOT_HERE,
  ];
  const out = [HEADER, ...rows.map((r) => [...r, '', '', ''].slice(0, HEADER.length))];
  sheet.getRange(1, 1, out.length, 3).setNumberFormat('@');
  sheet.getRange(2, 4, out.length - 1, 3).setNumberFormat('0.0');
  sheet.getRange(1, 1, out.length, HEADER.length).setValues(out);
  sheet.setFrozenRows(1);
  sheet.getRange(1, 1, 1, HEADER.length).setFontWeight('bold');
  sheet.activate();
}
