/**
 * Validar, and the check every run starts with: each row of the scope is read
 * and built once, its problems written beside it and the cells at fault
 * coloured; nothing is sent. A start hands what it read and built to its first
 * step instead of reading and building it again.
 */
import type { BillingClient } from '../../api/client';
import { bulkOperation, STATUS, TO_FIX } from './definitions';
import { issueText, type RowIssue, statusOf } from './rows';
import { expandRuns, highlight, type RowResult, writeResults } from './sheet-io';
import { type Context, cellAt, firstFive, type RowRequest, scopeRows, sheetContext, sheetOf } from './context';
import { cellsOf, normKey, readSheet, type Span, sheetDuplicates, standing } from './row-plan';
import { checkCustomers, fillCustomers } from './row-customers';
import { repeatedRows, repeatsText } from './repeats';
import type { BulkDeps, BulkRequest } from './state';

export interface ValidationSummary {
  sheetName: string;
  total: number;
  valid: number;
  invalid: number;
  /** Already done (OK, JÁ EXISTE, JÁ EMITIDA) or PENDENTE: left as they are. */
  untouched: number;
  warnings: string[];
  /** First problems, for the sidebar. */
  problems: string[];
  /** Rows whose content repeats another's, named ('' when none): the confirmation asks before sending them. */
  repeats: string;
}

/** The rows a validation read and built, for the first step of the same execution. */
export interface Prepared extends Span {
  built: Map<number, RowRequest>;
}

/** Builds every row of the scope not left as it is; the integration ids seen, for the discounts' check. */
function buildRows(ctx: Context, rows: readonly number[], span: Span, summary: ValidationSummary) {
  const built = new Map<number, RowRequest>();
  const keys = new Set<string>();
  for (const r of rows) {
    const row = span.values[r - span.first];
    keys.add(normKey(cellAt(row, ctx.layout.inputs.idIntegracao)));
    const is = standing(ctx, row);
    if (is === 'blank') continue;
    summary.total++;
    if (is === 'open') built.set(r, ctx.kind.build(ctx, row, r));
    else summary.untouched++;
  }
  return { built, keys };
}

/**
 * Each built row's verdict: its problems, or that it is ready (said only where the row said something else).
 * `run`: a run is starting, and its ERRO rows get their Status and time; Validar alone
 * claims no run happened, so it speaks only in Mensagem (and the red cells) and leaves Status and Processado em as they were.
 */
function verdicts(
  ctx: Context,
  span: Span,
  built: ReadonlyMap<number, RowRequest>,
  duplicates: ReadonlyMap<number, RowIssue>,
  when: { now: Date; run: boolean },
  summary: ValidationSummary,
) {
  const results = new Map<number, RowResult>();
  const issues: RowIssue[] = [];
  for (const [r, { built: one }] of built) {
    const duplicate = duplicates.get(r);
    if (duplicate) one.issues.push(duplicate);
    const row = span.values[r - span.first];
    const kept: RowResult = when.run ? { status: '', mensagem: '', processadoEm: when.now } : cellsOf(ctx, row);
    if (one.issues.length) {
      summary.invalid++;
      issues.push(...one.issues);
      if (summary.problems.length < 5) summary.problems.push(one.issues[0].message);
      const mensagem = issueText(one.issues);
      results.set(r, when.run ? { status: STATUS.erro, mensagem, processadoEm: when.now } : { ...kept, mensagem: `${TO_FIX}${mensagem}` });
    } else {
      summary.valid++;
      if (statusOf(cellAt(row, ctx.layout.results.status)) !== '' || String(cellAt(row, ctx.layout.results.mensagem)) !== '')
        results.set(r, { ...kept, status: '', mensagem: 'Linha válida: pronta para enviar.' });
    }
  }
  return { results, issues };
}

/** Discounts whose subscription no row of the sheet has: said only when the whole sheet was checked. */
function orphanDiscounts(ctx: Context, ranges: ReadonlyArray<[number, number]>, keys: ReadonlySet<string>): string[] {
  if (!ctx.discounts || ranges.length !== 1 || ranges[0][0] !== 2) return [];
  const orphans = [...ctx.discounts.byKey.keys()].filter((k) => !keys.has(k));
  if (orphans.length === 0) return [];
  return [`Aba "Descontos": nenhuma linha desta aba tem o ID de integração ${firstFive(orphans)}; esses descontos não serão enviados.`];
}

/**
 * Checks every row of the scope, writes each problem beside its row and colours the cells at fault; sends nothing.
 * `run`: false for Validar alone, which marks no row ERRO and stamps no Processado em (see verdicts).
 */
export function validateRows(
  deps: BulkDeps,
  ctx: Context,
  ranges: Array<[number, number]>,
  lookup?: BillingClient,
  run = true,
): { summary: ValidationSummary; prepared: Prepared } {
  const rows = expandRuns(ranges);
  const span = readSheet(ctx.sheet, ctx.layout, rows[rows.length - 1]);
  const summary: ValidationSummary = { sheetName: ctx.name, total: 0, valid: 0, invalid: 0, untouched: 0, warnings: ctx.warnings, problems: [], repeats: '' };
  const now = new Date(deps.now());
  const { built, keys } = buildRows(ctx, rows, span, summary);
  const duplicates = sheetDuplicates(ctx, span);
  const found = lookup
    ? checkCustomers(
        lookup,
        ctx,
        [...built].map(([row, made]) => ({ row, built: made.built })),
      )
    : new Map<number, number>();
  const { results, issues } = verdicts(ctx, span, built, duplicates, { now, run }, summary);
  summary.repeats = repeatsText(repeatedRows(built));
  // A run records in each row the customer its CPF/CNPJ found; Validar changes no cell the user typed in.
  if (run) fillCustomers(ctx, span, found);
  summary.warnings = [...summary.warnings, ...orphanDiscounts(ctx, ranges, keys)];
  writeResults(ctx.sheet, ctx.layout, ctx.op, results);
  // What was just written is what the sheet now holds: the first step reads its statuses from here.
  const statusAt = ctx.layout.results.status - 1;
  for (const [r, result] of results) span.values[r - span.first][statusAt] = result.status;
  if (built.size) {
    const checked = [...built.keys()];
    highlight(ctx.sheet, ctx.layout, checked[0], checked[checked.length - 1], new Set(checked), issues);
  }
  return { summary, prepared: { ...span, built } };
}

/**
 * Validar: every check Executar makes before sending, customers named by
 * CPF/CNPJ included (looked up with `connectionId`'s key, one request per
 * distinct value); nothing is written to the service.
 */
export function validateSheet(deps: BulkDeps, request: Omit<BulkRequest, 'connection'>): ValidationSummary {
  const op = bulkOperation(request.operation);
  const sheet = sheetOf(deps, request.sheetName);
  const ctx = sheetContext(deps, op, sheet);
  const lookup = request.connectionId ? customerLookup(deps, ctx, request.connectionId) : undefined;
  return validateRows(deps, ctx, scopeRows(deps, sheet, request.scope), lookup, false).summary;
}

/**
 * The client that finds customers named by CPF/CNPJ, for a sheet that can name them: Validar's with the chosen connection,
 * a run's with its own (so a row whose customer is not found fails at the start, before it is given a key).
 */
export function customerLookup(deps: BulkDeps, ctx: Context, connectionId: string): BillingClient | undefined {
  return ctx.op.columns.some((c) => c.finds) ? deps.clientFor(connectionId).withLimit(deps.limit) : undefined;
}
