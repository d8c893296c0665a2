/**
 * What the owner's hourly run tells of their stored work it refuses: each item
 * in their name it cannot take as theirs (unreadable, owner removed, owner now
 * someone else), named and with what to do; a Histórico line per new
 * alteration, an e-mail only when allowed.
 */
import { describe, expect, it } from 'vitest';
import type { BulkJob } from '../../../src/core/bulk/state';
import type { Dashboard } from '../../../src/core/dashboards/store';
import {
  type Altered,
  alteredItems,
  FIX,
  lostItems,
  NOT_CONTINUED,
  notTheirsWhy,
  REDO,
  RESTARTS,
  tellAltered,
  unreadableWhy,
} from '../../../src/core/hourly/altered';
import type { Report } from '../../../src/core/reports/reports';
import type { PullJob } from '../../../src/core/runs/deps';
import { HISTORY_SHEET } from '../../../src/core/sheets/sheet-names';
import { MemoryBook } from '../bulk/memory-book';

const ME = 'eu';
const mine = { id: ME, email: 'eu@escritorio.com.br' };
const other = { id: 'outro', email: 'bia@escritorio.com.br' };

const report = (id: string, owner?: object) => ({ id, name: `Relatório ${id}`, owner }) as unknown as Report;
const bulk = (id: string, owner?: object) => ({ id, sheetName: `Lote ${id}`, owner }) as unknown as BulkJob;
const dashboard = (id: string, owner?: object) => ({ id, sheetName: `Painel ${id}`, owner }) as unknown as Dashboard;
const pull = (reportId: string) => ({ reportId }) as unknown as PullJob;

const sheets: Record<string, string> = { 'relatorio:r9': 'Cobranças', 'painel:p9': 'Vencimentos' };
const look = { place: (tag: string) => sheets[tag], raw: (key: string) => `{quebrado ${key}` };

describe('lostItems', () => {
  const items = {
    reports: [report('r1', mine), report('r2'), report('r3', other), report('r4', { email: 'sem id' })],
    pulls: [pull('r1'), pull('r3')],
    bulk: [bulk('b1', mine), bulk('b2', other)],
    dashboards: [dashboard('p1', other)],
    snapshots: [
      { key: 'faturamento.edicao.5', head: {} },
      { key: 'faturamento.edicao.6', head: { owner: other } },
    ],
  };

  it('leaves alone what is read as the owner’s, a readable pull, a snapshot a colleague pulled since, keys it does not know, and parts', () => {
    const keys = [
      'faturamento.relatorio.r1',
      'faturamento.lote.b1',
      'faturamento.job.r3',
      'faturamento.edicao.6',
      'faturamento.outra.x',
      'faturamento.lote.b9#a0',
    ];
    expect(lostItems(items, keys, ME, look)).toEqual([]);
  });

  it('an unreadable item is named by its sheet, else its code, and what to do is to make it again', () => {
    const keys = [
      'faturamento.relatorio.r9',
      'faturamento.relatorio.r8',
      'faturamento.job.r9',
      'faturamento.lote.b9',
      'faturamento.painel.p9',
      'faturamento.edicao.7',
    ];
    const lost = lostItems(items, keys, ME, look);
    expect(lost.map((a) => [a.what, a.name, a.fix, a.why])).toEqual([
      ['O relatório da aba "Cobranças"', 'Cobranças', REDO.report, unreadableWhy(false)],
      ['O relatório de código "r8"', 'r8', REDO.report, unreadableWhy(false)],
      ['A atualização em andamento do relatório da aba "Cobranças"', 'Cobranças', FIX.pull, unreadableWhy(true)],
      ['O lote de código "b9"', 'b9', REDO.bulk, unreadableWhy(false)],
      ['O painel da aba "Vencimentos"', 'Vencimentos', REDO.dashboard, unreadableWhy(false)],
      ['A base de comparação de "Enviar alterações"', 'Enviar alterações', FIX.snapshot, unreadableWhy(true)],
    ]);
    expect(unreadableWhy(false)).toBe(
      'não pode mais ser lido: a linha dele na aba oculta "Faturamento · dados" foi alterada fora do complemento, e ele não é executado',
    );
    expect(unreadableWhy(true)).toBe(
      'não pode mais ser lida: a linha dela na aba oculta "Faturamento · dados" foi alterada fora do complemento, e ela não é executada',
    );
    expect(lost.map((a) => Boolean(a.she))).toEqual([false, false, true, false, false, true]);
    expect(lost[2].subject).toBe('A atualização em andamento do relatório da aba "Cobranças" foi alterada e não pode mais ser lida');
    expect(lost[0]).toMatchObject({
      key: 'faturamento.relatorio.r9',
      text: '{quebrado faturamento.relatorio.r9',
      subject: 'O relatório da aba "Cobranças" foi alterado e não pode mais ser lido',
    });
    expect(lost.some((a) => a.letGo)).toBe(false);
  });

  it('an item whose owner was removed (or has no id) is an alteration, told as one', () => {
    const lost = lostItems(items, ['faturamento.relatorio.r2', 'faturamento.relatorio.r4', 'faturamento.edicao.5'], ME, look);
    expect(lost.map((a) => [a.what, a.name, a.fix, a.why, a.subject, a.letGo, a.she])).toEqual([
      ['O relatório "Relatório r2"', 'Relatório r2', FIX.report, undefined, undefined, undefined, undefined],
      ['O relatório "Relatório r4"', 'Relatório r4', FIX.report, undefined, undefined, undefined, undefined],
      ['A base de comparação de "Enviar alterações"', 'Enviar alterações', FIX.snapshot, undefined, undefined, undefined, true],
    ]);
    expect(lost[0].text).toBe(JSON.stringify(items.reports[1]));
  });

  it('an item now in someone else’s name says whose, what to do if nobody agreed to it, and is let go', () => {
    const lost = lostItems(items, ['faturamento.relatorio.r3', 'faturamento.lote.b2', 'faturamento.painel.p1'], ME, look);
    expect(lost.map((a) => [a.what, a.subject, a.letGo])).toEqual([
      ['O relatório "Relatório r3"', 'O relatório "Relatório r3" não está mais em seu nome', true],
      ['O lote da aba "Lote b2"', 'O lote da aba "Lote b2" não está mais em seu nome', true],
      ['O painel "Painel p1"', 'O painel "Painel p1" não está mais em seu nome', true],
    ]);
    expect(lost[0].why).toBe(notTheirsWhy(other.email));
    expect(lost[0].why).toMatch(/consta agora como de bia@escritorio\.com\.br/);
    expect(notTheirsWhy('')).toMatch(/como de outro editor/);
    expect(lost[0].fix).toBe(
      'Se foi um colega que clicou em "Assumir", não há nada a fazer; se não, em Relatórios, confira os filtros e a aba e clique em "Assumir" para salvá-lo de novo, ou exclua-o.',
    );
    expect(lost[1].fix).toMatch(/; se não, em Lançamentos em lote, clique em "Cancelar"/);
  });
});

describe('alteredItems', () => {
  it('a running pull and a snapshot are said in the feminine, the rest not', () => {
    const check = { me: ME, report: () => false, bulk: () => false, sealed: () => false, altered: () => true };
    const running = { reportId: 'r1', state: { status: 'running' } } as unknown as PullJob;
    const found = alteredItems(
      {
        reports: [report('r1', mine)],
        pulls: [running],
        bulk: [{ ...bulk('b1', mine), status: 'running' } as BulkJob],
        snapshots: [{ key: 'faturamento.edicao.5', head: { owner: mine } }],
      },
      check,
    );
    expect(found.map((a) => [a.key, a.she])).toEqual([
      ['faturamento.relatorio.r1', undefined],
      ['faturamento.job.r1', true],
      ['faturamento.lote.b1', undefined],
      ['faturamento.edicao.5', true],
    ]);
  });
});

describe('alteredItems, an unfinished pull its owner never signed', () => {
  const check = { me: ME, report: () => false, bulk: () => false, sealed: () => false, altered: () => false };
  const running = (reportId: string) => ({ reportId, state: { status: 'running' } }) as unknown as PullJob;
  const items = {
    reports: [report('r1', mine), { ...report('r2', mine), schedule: { kind: 'hourly' } } as Report, report('r3', other)],
    pulls: [running('r1'), running('r2'), running('r3'), { reportId: 'r1', state: { status: 'done' } } as unknown as PullJob],
    bulk: [],
  };

  it('is not continued nor called altered: a scheduled report starts over, another waits for Atualizar', () => {
    const found = alteredItems(items, check, new Set(['faturamento.relatorio.r1']));
    expect(found.map((a) => [a.key, a.why, a.fix, a.subject, a.she])).toEqual([
      ['faturamento.job.r1', NOT_CONTINUED, FIX.pull, 'A atualização em andamento do relatório "Relatório r1" não é continuada', true],
      ['faturamento.job.r2', NOT_CONTINUED, RESTARTS, 'A atualização em andamento do relatório "Relatório r2" não é continuada', true],
    ]);
  });

  it('one they signed and that is not as they saved it is an alteration', () => {
    const found = alteredItems(items, check, new Set(['faturamento.job.r1']));
    expect(found.map((a) => [a.key, a.why])).toEqual([
      ['faturamento.job.r1', undefined],
      ['faturamento.job.r2', NOT_CONTINUED],
    ]);
    expect(alteredItems(items, { ...check, sealed: () => true }, new Set())).toEqual([]);
  });
});

describe('tellAltered', () => {
  const lost: Altered = { key: 'k1', what: 'O relatório "A"', name: 'A', fix: 'Faça isto.', text: 't1', why: 'não pode mais ser lido', subject: 'Assunto' };
  const altered: Altered = { key: 'k2', what: 'O lote da aba "B"', name: 'Lote · B', fix: 'Faça aquilo.', text: 't2' };

  it('a Histórico line per new alteration, in the owner’s name; an e-mail only when allowed', () => {
    const book = new MemoryBook();
    const mails: string[][] = [];
    const told = tellAltered(
      {
        book,
        now: () => 7_000,
        who: 'eu@escritorio.com.br',
        firstTime: (a) => a.key !== 'k3',
        mayMail: (a) => a.key === 'k2',
        mail: (subject, body) => mails.push([subject, body]),
      },
      [lost, altered, { ...altered, key: 'k3' }],
    );
    expect(told).toBe(2);
    expect(book.byName(HISTORY_SHEET)?.grid.slice(1)).toEqual([
      [new Date(7_000), 'A', 'Agendado', 0, 0, 'ERRO', 'O relatório "A" não pode mais ser lido. Faça isto.', 'eu@escritorio.com.br'],
      [
        new Date(7_000),
        'Lote · B',
        'Agendado',
        0,
        0,
        'ERRO',
        'O lote da aba "B" foi alterado fora do complemento (alguém editou a aba oculta "Faturamento · dados") e não é executado. Faça aquilo.',
        'eu@escritorio.com.br',
      ],
    ]);
    expect(mails).toEqual([
      ['O lote da aba "B" foi alterado por outra pessoa', expect.stringMatching(/^O lote da aba "B" foi alterado fora .*Faça aquilo\.$/)],
    ]);
  });

  it('without a limit every new alteration is e-mailed, under its own subject, in words that agree with the item', () => {
    const mails: string[][] = [];
    const she: Altered = { key: 'k4', what: 'A base de comparação', name: 'Enviar alterações', fix: 'Refaça.', text: 't4', she: true };
    tellAltered({ book: new MemoryBook(), now: () => 1, firstTime: () => true, mail: (subject, body) => mails.push([subject, body]) }, [lost, altered, she]);
    expect(mails.map(([subject]) => subject)).toEqual([
      'Assunto',
      'O lote da aba "B" foi alterado por outra pessoa',
      'A base de comparação foi alterada por outra pessoa',
    ]);
    expect(mails[2][1]).toBe(
      'A base de comparação foi alterada fora do complemento (alguém editou a aba oculta "Faturamento · dados") e não é executada. Refaça.',
    );
  });
});
