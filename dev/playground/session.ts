/**
 * One playground session: the emulator running the bundle, the open sidebars
 * and dialogs, and the actions the page sends. Every method answers plain JSON
 * and never throws for something the bundle did.
 */
import { columnLetters } from '../gas/a1';
import { typeInto } from '../gas/formula-locale';
import type { ExecutionReport, GasEmulator } from '../gas/runner';
import { CELL_LIMIT_MESSAGE } from '../gas/spreadsheet-model';
import { callableFunctions, injectBridge, parseRpcRequest, runScriptCall } from './rpc';
import { buildView, type RowWindow } from './state';
import { applyStructureEdit, parseStructureEdit } from './structure';
import { Surfaces } from './surfaces';
import type { PlaygroundView, RpcReply } from './view';

export type ActionReply = { ok: true; version: number; message?: string } | { ok: false; version: number; error: { name: string; message: string } };

/** What Sheets tells a person in Portuguese where the Spreadsheet service, which the grid's edits go through, speaks English. */
const IN_PORTUGUESE: Record<string, string> = {
  [CELL_LIMIT_MESSAGE]: 'Esta ação aumentaria o número de células da planilha acima do limite de 10.000.000 células.',
  "You can't delete all the rows on the sheet.": 'Não é possível excluir todas as linhas da página.',
  "You can't delete all the columns on the sheet.": 'Não é possível excluir todas as colunas da página.',
  "You can't remove all the sheets in a document.": 'Não é possível excluir todas as páginas da planilha.',
};

const A1_RANGE = /^[A-Z]{1,3}\d{1,7}(:[A-Z]{1,3}\d{1,7})?$/;
const MINUTE = 60_000;

export class Session {
  readonly surfaces: Surfaces;
  private version = 1;
  private readonly triggerRuns: ExecutionReport[] = [];
  private functions: string[] | null = null;
  /** The editor using the page now: sidebars and menus run as them. */
  user: string;

  constructor(
    readonly emulator: GasEmulator,
    private readonly demo: PlaygroundView['demo'],
    readonly users: string[] = [emulator.options.user ?? 'contador@example.com.br'],
    /** The sandbox's demo organizations and their keys, for adding a second connection by hand. */
    readonly demoKeys: Array<{ name: string; apiKey: string }> = [],
  ) {
    this.surfaces = new Surfaces(emulator.ui);
    this.user = users[0];
  }

  /** Another editor sits down at the shared document: their own properties, connections and triggers; the previous one's sidebars close. */
  switchUser(user: string): ActionReply {
    if (!this.users.includes(user)) return this.fail(new Error(`Usuário desconhecido: ${user}`));
    this.user = user;
    this.surfaces.sync();
    if (this.surfaces.sidebar()) this.surfaces.close(this.surfaces.sidebar()!.id);
    for (const d of this.surfaces.dialogs()) this.surfaces.close(d.id);
    return { ok: true, version: this.changed(), message: `Agora você é ${user}.` };
  }

  /** Tells the page the state moved on (for changes made to the emulator directly, e.g. by a test). */
  touch(): number {
    return this.changed();
  }

  get currentVersion(): number {
    return this.version;
  }

  private changed(): number {
    this.surfaces.sync();
    return ++this.version;
  }

  private fail(err: unknown): ActionReply {
    const e = err as Error;
    const message = e?.message ?? String(err);
    return { ok: false, version: this.changed(), error: { name: e?.name ?? 'Error', message: IN_PORTUGUESE[message] ?? message } };
  }

  /** The state the page draws, with the rows of the active tab in `window` (the ones the page shows). */
  view(window?: RowWindow): PlaygroundView {
    return buildView({
      window,
      emulator: this.emulator,
      surfaces: this.surfaces,
      version: this.version,
      demo: this.demo,
      users: { current: this.user, all: [...this.users] },
      triggerRuns: this.triggerRuns,
    });
  }

  surfaceHtml(id: number): string | null {
    const record = this.surfaces.record(id);
    if (!record) return null;
    this.functions ??= callableFunctions(this.emulator);
    return injectBridge(record.html, id, this.functions);
  }

  scriptRun(body: unknown): RpcReply {
    try {
      return runScriptCall(this.emulator, parseRpcRequest(body), () => this.changed(), this.user);
    } catch (err) {
      const e = err as Error;
      return { ok: false, error: { name: e.name, message: e.message }, version: this.changed() };
    }
  }

  /** A menu item: the function runs with no arguments, in FULL, like a click in Sheets. */
  menuClick(functionName: string): ActionReply {
    if (!this.emulator.menuItems().some((m) => m.functionName === functionName)) {
      return this.fail(new Error(`Nenhum item de menu chama ${functionName}`));
    }
    const report = this.emulator.execute(functionName, [], { kind: 'ui', authMode: 'FULL', scriptRun: false, user: this.user });
    if (report.status === 'ok') return { ok: true, version: this.changed() };
    return { ok: false, version: this.changed(), error: { name: report.error?.name ?? 'Error', message: report.error?.message ?? 'Erro desconhecido' } };
  }

  select(sheet: string, ranges: string[]): ActionReply {
    try {
      const clean = ranges.map((r) => String(r).toUpperCase());
      if (clean.length === 0 || clean.some((r) => !A1_RANGE.test(r))) throw new Error(`Seleção inválida: ${ranges.join(', ')}`);
      this.emulator.select(sheet, ...clean);
      return { ok: true, version: this.changed() };
    } catch (err) {
      return this.fail(err);
    }
  }

  /**
   * The user's edits in the grid, all through this one entry point and the
   * emulator's own Range API: typed text is parsed as Sheets parses typed input
   * (numbers, dates, formulas in the spreadsheet's locale) unless the cells are formatted as text, and
   * Delete clears contents only, as in Sheets.
   */
  edit(body: { sheet?: unknown; at?: unknown; rows?: unknown; clear?: unknown }): ActionReply {
    try {
      const name = String(body.sheet ?? '');
      const rows = Array.isArray(body.rows) ? (body.rows as unknown[][]).map((r) => (Array.isArray(r) ? r.map((v) => String(v ?? '')) : [])) : null;
      const clear = Array.isArray(body.clear) ? body.clear.map((r) => String(r).toUpperCase()) : null;
      if (clear?.some((r) => !A1_RANGE.test(r))) throw new Error(`Intervalo inválido: ${clear.join(', ')}`);
      const at = String(body.at ?? '').toUpperCase();
      if (rows && !A1_RANGE.test(at)) throw new Error(`Célula inválida: ${at}`);
      if (rows && (rows.length === 0 || rows.length > 5000)) throw new Error('Cole de 1 a 5.000 linhas.');
      if (clear)
        this.emulator.withServices((s) => {
          const sheet = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name);
          if (!sheet) throw new Error(`Aba "${name}" não existe`);
          for (const a1 of clear) sheet.getRange(a1).clearContent();
        });
      if (rows) {
        this.growFor(name, at, rows);
        typeInto(this.emulator, name, at, rows);
      }
      return { ok: true, version: this.changed() };
    } catch (err) {
      return this.fail(err);
    }
  }

  /** A paste past the last row or column adds the rows and columns it needs, as Sheets grows the grid for a paste. */
  private growFor(name: string, at: string, rows: string[][]): void {
    this.emulator.withServices((s) => {
      const sheet = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name);
      if (!sheet) throw new Error(`Aba "${name}" não existe`);
      const start = sheet.getRange(at);
      const moreRows = start.getRow() + rows.length - 1 - sheet.getMaxRows();
      const moreColumns = start.getColumn() + Math.max(...rows.map((r) => r.length)) - 1 - sheet.getMaxColumns();
      if (moreRows > 0) sheet.insertRowsAfter(sheet.getMaxRows(), moreRows);
      if (moreColumns > 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), moreColumns);
    });
  }

  /** Rows, columns, sort and tabs, at the selection (dev/playground/structure.ts). */
  structure(body: { action?: unknown; name?: unknown }): ActionReply {
    try {
      const message = applyStructureEdit(this.emulator, parseStructureEdit(body));
      return { ok: true, version: this.changed(), message };
    } catch (err) {
      return this.fail(err);
    }
  }

  /** A click on a sheet tab. */
  activate(sheetId: number): ActionReply {
    const sheet = this.emulator.spreadsheet.byId(sheetId);
    if (!sheet) return this.fail(new Error(`Aba ${sheetId} não existe`));
    this.emulator.select(sheet.name, `${columnLetters(1)}1`);
    return { ok: true, version: this.changed() };
  }

  closeSurface(id: number): ActionReply {
    this.surfaces.close(id);
    return { ok: true, version: this.changed() };
  }

  /** Moves virtual time forward and fires the time-driven triggers that became due. */
  advance(minutes: number): ActionReply {
    try {
      if (!Number.isFinite(minutes) || minutes < 0 || minutes > 60 * 24 * 31) throw new Error('minutes: 0 a 44640');
      // Hour by hour, as the clock really moves: an hourly trigger fires at every hour it passes,
      // so a daily report due at 7 runs when the day is advanced at 9 the day before.
      const target = this.emulator.now + minutes * MINUTE;
      const reports = [];
      for (let at = this.emulator.now + 60 * MINUTE; at < target; at += 60 * MINUTE) reports.push(...this.emulator.runDueTriggers(new Date(at)));
      reports.push(...this.emulator.runDueTriggers(new Date(target)));
      this.triggerRuns.push(...reports);
      const failed = reports.filter((r) => r.status !== 'ok').length;
      const message =
        reports.length === 0
          ? 'Nenhum gatilho estava na hora.'
          : `${reports.length} ${reports.length === 1 ? 'execução' : 'execuções'} de gatilho${failed ? `, ${failed} com erro` : ''}.`;
      return { ok: true, version: this.changed(), message };
    } catch (err) {
      return this.fail(err);
    }
  }
}
