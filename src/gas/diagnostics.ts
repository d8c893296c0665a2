/**
 * Faturamento › Diagnóstico (ajuda): on a real deployment, checks the assumptions about
 * Google that no emulator can prove, and writes what it saw in a
 * "Diagnóstico" sheet (assumption, observed, verdict). docs/deploy.md says
 * when to run it.
 */
import { checkConnection } from '../core/connection-check';
import { hostProblem } from '../core/connections';
import { DAILY_QUOTA } from '../core/usage';
import { DISPATCHER } from './dispatcher';
import { executionStarted } from './execution-limit';
import { type HourlyRunSeen, LAST_RUN_KEY } from './run-seen';
import { allowedBaseUrls, clientFor, connectionStore, spreadsheetTimeZone, userStore } from './services';
import { usageStore } from './usage';

export const DIAGNOSTICS_SHEET = 'Diagnóstico';

type Verdict = 'OK' | 'FALHA' | 'VERIFICAR';
type Row = [assumption: string, observed: string, verdict: Verdict];
function attempt(assumption: string, check: () => [string, Verdict]): Row {
  try {
    return [assumption, ...check()];
  } catch (err) {
    return [assumption, `Erro: ${String((err as Error).message).slice(0, 300)}`, 'FALHA'];
  }
}

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

function lastHourlyRun(): Row {
  return attempt('A execução de hora em hora vê a planilha ativa, as propriedades do documento e o bloqueio do documento', () => {
    const raw = userStore().get(LAST_RUN_KEY);
    if (!raw) return ['nenhuma execução de hora em hora registrada ainda: agende um relatório, espere uma hora e rode o diagnóstico de novo', 'VERIFICAR'];
    const seen = JSON.parse(raw) as HourlyRunSeen;
    const ok = seen.activeSpreadsheet && seen.documentProperties && seen.documentLock;
    const yes = (b: boolean) => (b ? 'sim' : 'não');
    return [
      `em ${Utilities.formatDate(new Date(seen.at), spreadsheetTimeZone(), 'dd/MM/yyyy HH:mm')}: planilha ativa ${yes(seen.activeSpreadsheet)}, propriedades do documento ${yes(seen.documentProperties)}, bloqueio ${yes(seen.documentLock)}`,
      ok ? 'OK' : 'FALHA',
    ];
  });
}

function hostsReachable(): Row[] {
  const rows: Row[] = [];
  const allowed = allowedBaseUrls();
  rows.push(['Endereços permitidos nesta publicação (urlFetchWhitelist)', (allowed ?? []).join(', ') || 'nenhum', allowed?.length ? 'OK' : 'FALHA']);
  let connections: ReturnType<ReturnType<typeof connectionStore>['list']> = [];
  try {
    connections = connectionStore().list();
  } catch {
    connections = [];
  }
  if (connections.length === 0) rows.push(['O serviço permitido responde', 'nenhuma conexão configurada: adicione uma em Conexões', 'VERIFICAR']);
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

function quotas(): Row[] {
  const u = usageStore().get();
  return [
    [
      'Uso de hoje das cotas diárias (contas pessoais: 20.000 chamadas, 90 min de gatilhos)',
      `${u.fetches} de ${DAILY_QUOTA.fetches} chamadas; ${Math.round(u.triggerMs / 60_000)} de ${DAILY_QUOTA.triggerMs / 60_000} min${u.stopped ? `; ${u.stopped}` : ''}`,
      u.stopped ? 'VERIFICAR' : 'OK',
    ],
    attempt('E-mails que ainda podem ser enviados hoje', () => {
      const left = MailApp.getRemainingDailyQuota();
      return [`${left}`, left > 0 ? 'OK' : 'FALHA'];
    }),
    attempt('Um só gatilho de hora em hora por usuário nesta planilha', () => {
      const mine = ScriptApp.getUserTriggers(SpreadsheetApp.getActiveSpreadsheet()).filter((t) => t.getHandlerFunction() === DISPATCHER);
      return [`${mine.length} gatilho(s)`, mine.length <= 1 ? 'OK' : 'FALHA'];
    }),
  ];
}

const NOT_HERE: Row[] = [
  [
    'Uma chamada sem resposta termina em cerca de 60 s, com o erro "Timeout"',
    'não pode ser provocado daqui sem um serviço que trave; o complemento planeja com 60 s por chamada',
    'VERIFICAR',
  ],
  [
    'Gravações não salvas sobrevivem a uma execução interrompida aos 6 minutos',
    'o complemento grava um ponto de retomada depois de cada bloco e nunca depende disso',
    'VERIFICAR',
  ],
];

/** Menu handler: runs every check and writes the Diagnóstico sheet. */
export function runDiagnostics(): void {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = ss.getSheetByName(DIAGNOSTICS_SHEET) ?? ss.insertSheet(DIAGNOSTICS_SHEET);
  sheet.clear();
  const rows: Row[] = [
    textStaysText(sheet),
    dateInZone(sheet),
    lastHourlyRun(),
    ...hostsReachable(),
    ...quotas(),
    ['Tempo desde o início desta execução até aqui', `${Date.now() - executionStarted()} ms`, 'OK'],
    // Reaching this line proves it: this file is one of the chunks the bundle keeps as text (dev/build/lazy-chunks.ts).
    ['O código que o pacote guarda como texto é compilado quando usado (new Function)', 'sim: este diagnóstico é uma dessas partes', 'OK'],
    ...NOT_HERE,
  ];
  const out = [['Suposição', 'Observado', 'Veredito'], ...rows];
  sheet.getRange(1, 1, out.length, 3).setNumberFormat('@').setValues(out);
  sheet.setFrozenRows(1);
  sheet.getRange(1, 1, 1, 3).setFontWeight('bold');
  sheet.activate();
}
