/**
 * What the template sheets show a person, derived from the write table: each
 * column has a label of its own and a note that explains it, each example
 * fits its own column, and each operation names its template and its write.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { BodyField, InputField, WriteOperation } from '../../src/api/writes';
import { fresh } from './fresh';

let m: Awaited<ReturnType<typeof fresh>>;
beforeEach(async () => {
  m = await fresh();
});

function inputs(fields: Record<string, BodyField>): Array<[string, InputField]> {
  return Object.entries(fields).flatMap(([name, field]) =>
    field.kind === 'list' ? inputs(field.item).map(([n, f]) => [`${name}.${n}`, f] as [string, InputField]) : [[name, field] as [string, InputField]],
  );
}

describe('write templates', () => {
  it('every column of every template has a label of its own and a note that explains it', () => {
    const operations = Object.values(m.writes) as WriteOperation[];
    for (const op of operations) {
      const columns = inputs(op.fields).filter(([name]) => !name.includes('.'));
      const labels = columns.map(([, f]) => f.label);
      expect(new Set(labels).size, op.key).toBe(labels.length);
      for (const [name, field] of inputs(op.fields)) {
        expect(field.label.trim(), `${op.key}.${name}`).not.toBe('');
        expect(field.note.length, `${op.key}.${name}`).toBeGreaterThan(20);
      }
    }
  });

  it('each example fits its own column: one example row passes the check of its operation', () => {
    const operations = Object.values(m.writes) as WriteOperation[];
    for (const op of operations) {
      const body: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(op.fields)) {
        if (field.kind === 'list')
          body[name] = [Object.fromEntries(inputs(field.item).map(([n, f]) => [n, f.kind === 'boolean' ? f.example === 'Sim' : f.example]))];
        else if (field.in === undefined) body[name] = field.kind === 'boolean' ? field.example === 'Sim' : field.example;
      }
      expect(m.checkBody(op.key, body), op.key).toMatchObject({ ok: true });
      for (const [name, field] of inputs(op.fields)) {
        if (!field.required || field.in === 'path') continue;
        const [list, item] = name.split('.');
        const without = item
          ? { ...body, [list]: [{ ...(body[list] as Array<Record<string, unknown>>)[0], [item]: undefined }] }
          : { ...body, [name]: undefined };
        expect(m.checkBody(op.key, without).ok, `${op.key}.${name} is required`).toBe(false);
      }
    }
  });

  it('names each operation, its write and the listing records an update applies to', () => {
    const operations = Object.values(m.writes) as WriteOperation[];
    expect(operations.map((op) => [op.key, op.label, op.path, op.identity, op.response])).toEqual([
      ['criarAssinaturaPersonalizada', 'Criar assinaturas personalizadas', '/v2/assinaturascontratos/personalizado', 'idIntegracao', 'subscription'],
      ['atualizarAssinaturaPersonalizada', 'Atualizar assinaturas personalizadas', '/v2/assinaturascontratos/personalizado/{id}', 'idempotent', 'subscription'],
      ['criarAssinaturaPlano', 'Criar assinaturas de plano', '/v2/assinaturascontratos/plano', 'idIntegracao', 'subscription'],
      ['atualizarAssinaturaPlano', 'Atualizar assinaturas de plano', '/v2/assinaturascontratos/plano/{id}', 'idempotent', 'subscription'],
      ['emitirNfse', 'Emitir NFS-e de faturas', '/v2/faturamento/nfse/emitir', 'idFatura', 'emission'],
    ]);
    expect(operations.map((op) => op.edits)).toEqual([
      undefined,
      { listing: 'assinaturas', field: 'tipoContrato', value: 'PERSONALIZADO' },
      undefined,
      { listing: 'assinaturas', field: 'tipoContrato', value: 'PLANO' },
      undefined,
    ]);
    // An update's id goes into its path, and only there.
    for (const op of operations) {
      const inPath = inputs(op.fields).filter(([, f]) => f.in === 'path');
      expect(inPath.length, op.key).toBe(op.path.includes('{id}') ? 1 : 0);
    }
  });
});
