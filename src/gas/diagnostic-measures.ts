/**
 * The Diagnóstico's measurements: what the cost model assumes (a setValues of
 * many cells, a flush, another spreadsheet opened by id and read, a fetchAll
 * of 10 against the allowed host), timed on the real platform and written
 * beside the model's figures.
 */
import { plural } from '../api/words';
import { AgendaStore } from '../core/hourly/agenda';
import { COST_FIGURES, type CostFigures } from './cost-model';
import { attempt, type Figures, type Row, type Verdict } from './diagnostic-row';
import { ownerStore, userStore } from './services';

const ROWS = 100;
const COLUMNS = 10;
/** Where the write is timed: right of the columns the Diagnóstico fills, cleared afterwards. */
const SCRATCH_COLUMN = 8;
const FETCHES = 10;

function timed(action: () => unknown): number {
  const start = Date.now();
  action();
  return Date.now() - start;
}

export const ms = (n: number) => `${String(Math.round(n * 10) / 10).replace('.', ',')} ms`;

/** The measured figure beside the model's: above its pessimistic end is an AVISO, the add-on's deadlines assume less. */
export function besideModel(observed: string, measured: number, model: (c: CostFigures) => number): [string, Verdict, ...Figures] {
  const low = model(COST_FIGURES.optimistic);
  const high = model(COST_FIGURES.pessimistic);
  const within = measured <= high;
  const verdict = within
    ? 'dentro do modelo'
    : `acima do modelo pessimista (${ms(high)}): os prazos do complemento contam com menos; envie esta aba aos desenvolvedores`;
  return [`${observed}; ${verdict}`, within ? 'OK' : 'AVISO', measured, low, high];
}

/** A setValues of 1.000 cells, then the flush that applies it. */
export function writeCosts(sheet: GoogleAppsScript.Spreadsheet.Sheet): Row[] {
  const cells = ROWS * COLUMNS;
  const range = sheet.getRange(1, SCRATCH_COLUMN, ROWS, COLUMNS);
  const values = Array.from({ length: ROWS }, (_, r) => Array.from({ length: COLUMNS }, (_, c) => r * COLUMNS + c));
  const rows = [
    attempt(`Gravar ${plural(cells, 'célula', 'células')} com um setValues`, () => {
      const took = timed(() => range.setValues(values));
      return besideModel(`${ms(took)} (o Google pode deixar parte do trabalho para o flush)`, took, (c) => c.spreadsheetCallMs + cells * c.cellWriteMs);
    }),
    attempt('SpreadsheetApp.flush() aplica essa gravação', () => {
      const took = timed(() => SpreadsheetApp.flush());
      return besideModel(ms(took), took, (c) => c.spreadsheetCallMs + c.flushMs);
    }),
  ];
  range.clear();
  return rows;
}

/** Documents of the user's other than `current`: those of their agenda, then those they keep work in. */
function otherDocuments(current: string): string[] {
  const agenda = Object.keys(new AgendaStore(userStore()).read() ?? {});
  return [...new Set([...agenda, ...ownerStore().documents()])].filter((id) => id !== current);
}

/** Tried at most on this many of the user's other documents: one may have been deleted or unshared. */
const TRIES = 3;

/**
 * Opening another of the user's spreadsheets by id and its first read, as the hourly run opens each
 * document that has no trigger of its own: the active document is at hand already and would tell nothing.
 */
export function openOtherCost(current: string): Row {
  const assumption = 'Abrir outra planilha sua pelo id (openById) e ler nela pela primeira vez, como a execução de hora em hora faz';
  const candidates = otherDocuments(current).slice(0, TRIES);
  if (candidates.length === 0)
    return [assumption, 'não medido: você não tem trabalho em outra planilha; agende um relatório em outra planilha e rode o diagnóstico de novo', 'VERIFICAR'];
  const refused: string[] = [];
  for (const id of candidates) {
    let other: GoogleAppsScript.Spreadsheet.Spreadsheet | undefined;
    let open = 0;
    try {
      open = timed(() => {
        other = SpreadsheetApp.openById(id);
      });
    } catch (err) {
      refused.push(String((err as Error).message).slice(0, 100));
      continue;
    }
    const opened = other as GoogleAppsScript.Spreadsheet.Spreadsheet;
    return attempt(assumption, () => {
      const read = timed(() => opened.getSheets()[0].getRange(1, 1).getValue());
      // The open, then a look at the sheets, a range and its value: four round trips beside the open's own cost.
      return besideModel(`${ms(open + read)}: openById ${ms(open)}, primeira leitura ${ms(read)}`, open + read, (c) => c.openByIdMs + 4 * c.spreadsheetCallMs);
    });
  }
  return [assumption, `não medido: nenhuma das suas outras planilhas abriu (${refused.join('; ')})`, 'VERIFICAR'];
}

/**
 * One request, then ten at once, to `url` (a host the manifest allows). The model takes a
 * fetchAll of 10 as one round trip: ten that went out one after another show in the ratio.
 */
export function fetchCosts(url: string | null): Row[] {
  const one = 'Um pedido ao serviço permitido (UrlFetchApp.fetch)';
  const all = `${FETCHES} pedidos de uma vez ao serviço permitido (UrlFetchApp.fetchAll)`;
  if (!url) {
    const why = 'não medido: nenhuma conexão nem endereço permitido nesta publicação';
    return [
      [one, why, 'VERIFICAR'],
      [all, why, 'VERIFICAR'],
    ];
  }
  const params = { muteHttpExceptions: true, followRedirects: false };
  let single = 0;
  return [
    attempt(one, () => {
      single = timed(() => UrlFetchApp.fetch(url, params));
      const [observed, , ...figures] = besideModel(`${ms(single)} até ${url}, com o tempo do próprio serviço`, single, (c) => c.urlFetchCallMs);
      return [observed, 'INFO', ...figures];
    }),
    attempt(all, () => {
      const took = timed(() => UrlFetchApp.fetchAll(Array.from({ length: FETCHES }, () => ({ url, ...params }))));
      if (single <= 0)
        return [
          `${ms(took)}; sem um pedido sozinho para comparar`,
          'VERIFICAR',
          took,
          COST_FIGURES.optimistic.urlFetchCallMs,
          COST_FIGURES.pessimistic.urlFetchCallMs,
        ];
      const inSequence = took / single;
      const together = inSequence <= 2;
      const observed = `${ms(took)}: ${inSequence.toFixed(1).replace('.', ',')} × o tempo de um pedido sozinho (${ms(single)})`;
      const verdict: Verdict = together ? 'OK' : 'AVISO';
      const note = together
        ? 'saíram juntos, como o modelo supõe'
        : 'não saíram juntos: as ondas de páginas levam mais que o modelo supõe; envie esta aba aos desenvolvedores';
      return [`${observed}; ${note}`, verdict, took, COST_FIGURES.optimistic.urlFetchCallMs, COST_FIGURES.pessimistic.urlFetchCallMs];
    }),
  ];
}
