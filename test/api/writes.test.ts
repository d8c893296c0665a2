/**
 * The write table is the one definition of each write: the sheet template,
 * the row validation, the body building and the client's request check must
 * all follow it, so a limit can never be enforced on one side only.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../src/api/calendar';
import { BillingClient } from '../../src/api/client';
import { ValidationError } from '../../src/api/errors';
import { checkBody, type InputField, isChecked, write, writes } from '../../src/api/writes';
import { listings } from '../../src/api/operations';
import { bulkOperations } from '../../src/core/bulk/definitions';
import { buildRow } from '../../src/core/bulk/rows';
import type { CellValue } from '../../src/core/sheets/table';

const zone = intlZone('America/Sao_Paulo');
const client = new BillingClient({
  baseUrl: 'http://127.0.0.1:9',
  apiKey: 'k',
  transport: { fetch: () => ({ ok: false, error: 'offline' }) } as never,
  sleep: () => {},
  zone,
});

/** A valid wire value for each kind, from the field's own example. */
function wire(field: InputField): unknown {
  if (field.kind === 'boolean') return field.example === 'Sim';
  return field.example;
}

function validBody(key: keyof typeof writes): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(writes[key].fields)) {
    if (field.kind === 'list') body[name] = [Object.fromEntries(Object.entries(field.item as Record<string, InputField>).map(([n, f]) => [n, wire(f)]))];
    else if (field.in !== 'path') body[name] = wire(field);
  }
  return body;
}

describe('the write table', () => {
  for (const op of Object.values(bulkOperations)) {
    it(`${op.label}: the template has one column per field, the body one entry per field that is neither the path's id nor a sheet-only column`, () => {
      const fields = Object.entries(op.write.fields);
      expect(op.columns.map((c) => c.field)).toEqual(fields.filter(([, f]) => f.kind !== 'list').map(([n]) => n));
      expect(Object.keys(op.write.body.shape).sort()).toEqual(
        fields
          .filter(([, f]) => f.kind === 'list' || f.in === undefined)
          .map(([n]) => n)
          .sort(),
      );
      expect(checkBody(op.key, validBody(op.key)).ok).toBe(true);
    });
  }

  it('a limit declared on a field holds in the sheet and at the client alike', () => {
    const op = bulkOperations.criarAssinaturaPersonalizada;
    const cases: Array<[string, CellValue, unknown]> = [
      ['idIntegracao', 'x'.repeat(61), 'x'.repeat(61)],
      ['idIntegracao', 'com espaço', 'com espaço'],
      ['diaVencimentoCobranca', 32, 32],
      ['diaVencimentoCobranca', 0, 0],
      ['valor', 10.001, 10.001],
      ['valor', 0, 0],
      ['descricaoAssinaturaContrato', 'd'.repeat(256), 'd'.repeat(256)],
      ['formaFaturamentoAssinatura', 'MISTA', 'MISTA'],
      ['competenciaInicial', '13/2026', '13/2026'],
    ];
    const inputs = Object.fromEntries(op.columns.map((c, i) => [c.field, i + 1]));
    const layout = { inputs, results: { status: 20, id: 21, numero: 0, chave: 0, mensagem: 22, processadoEm: 23 }, lastColumn: 23 };
    const valid: CellValue[] = op.columns.map((c) => (c.kind === 'date' ? zone.instant({ year: 2026, month: 11, day: 1 }) : (c.example as CellValue)));
    expect(buildRow(op, layout, valid, 2, 'Lote', zone).issues).toEqual([]);
    for (const [field, cell, value] of cases) {
      const row = valid.slice();
      row[inputs[field] - 1] = cell;
      expect(buildRow(op, layout, row, 2, 'Lote', zone).issues.length, `${field} = ${String(cell)} in the sheet`).toBeGreaterThan(0);
      let error: unknown;
      try {
        client.validateBody(op.write, { ...validBody(op.key), [field]: value });
      } catch (e) {
        error = e;
      }
      expect(error, `${field} = ${String(value)} at the client`).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toContain(field);
    }
  });

  it('rules across fields hold at the client too (discounts, NFS-e text)', () => {
    const plan = validBody('criarAssinaturaPlano');
    const [discount] = plan.descontos as Array<Record<string, unknown>>;
    const bad = (d: Record<string, unknown>) => checkBody('criarAssinaturaPlano', { ...plan, descontos: [{ ...discount, ...d }] });
    expect(bad({ tipoDesconto: 'PERCENTUAL', valorDesconto: 101 })).toMatchObject({ ok: false, issues: [{ field: 'descontos.0.valorDesconto' }] });
    expect(bad({ competenciaInicial: '12/2026', competenciaFinal: '11/2026' })).toMatchObject({
      ok: false,
      issues: [{ field: 'descontos.0.competenciaFinal' }],
    });
    expect(bad({ tipoDesconto: 'VALOR', valorDesconto: 101 }).ok).toBe(true);
    const update = { valor: 10, descricaoAssinaturaContrato: 'x', isAtualizaDiscriminacaoNfse: true, discriminacaoNfse: '' };
    expect(checkBody('atualizarAssinaturaPersonalizada', update)).toMatchObject({ ok: false, issues: [{ field: 'discriminacaoNfse' }] });
    expect(checkBody('atualizarAssinaturaPersonalizada', { ...update, isAtualizaDiscriminacaoNfse: false }).ok).toBe(true);
  });

  it('a body checked once is not checked again, and cannot change after its check', () => {
    const checked = checkBody('emitirNfse', { idFatura: 7 });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(isChecked(checked.body)).toBe(true);
    expect(Object.isFrozen(checked.body)).toBe(true);
    expect(client.validateBody(writes.emitirNfse, checked.body)).toBe(checked.body);
    expect(isChecked({ idFatura: 7 })).toBe(false);
    expect(() => client.validateBody(writes.emitirNfse, { idFatura: 0 })).toThrow(ValidationError);
  });
});

describe('the tables looked up by a name from a sidebar', () => {
  it.each(['toString', 'constructor', '__proto__', 'valueOf'])('know no write and no listing called %s', (name) => {
    expect(() => write(name)).toThrow(`Operação de escrita desconhecida: ${name}`);
    expect((listings as Record<string, unknown>)[name]).toBeUndefined();
    expect(Object.keys(writes)).not.toContain(name);
  });
});
