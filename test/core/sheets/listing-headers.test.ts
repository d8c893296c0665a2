/**
 * The headers people read on every imported sheet: each column and each child
 * sheet of every listing has a Portuguese label of its own, so no two columns
 * look alike and none is blank; each note says something.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ListOperation } from '../../../src/api/operations';
import { fresh } from '../../api/fresh';

let m: Awaited<ReturnType<typeof fresh>>;
beforeEach(async () => {
  m = await fresh();
});

function expectDistinctLabels(labels: string[], where: string) {
  for (const label of labels) expect(label.trim(), where).not.toBe('');
  const seen = new Set<string>();
  for (const label of labels) {
    expect(seen.has(label), `${where}: "${label}" twice`).toBe(false);
    seen.add(label);
  }
}

describe('listing headers', () => {
  it('every column of every listing has a label of its own', () => {
    const operations = Object.values(m.listings) as ListOperation[];
    for (const op of operations)
      expectDistinctLabels(
        m.tableSpec(op).columns.map((c) => c.label),
        op.key,
      );
  });

  it('every child sheet and each of its columns is labelled, the parent id first', () => {
    const operations = Object.values(m.listings) as ListOperation[];
    for (const op of operations) {
      const { children, columns } = m.tableSpec(op);
      expectDistinctLabels(
        children.map((c) => c.label),
        `${op.key} children`,
      );
      for (const child of children) {
        // An item that repeats its parent's id (a discount's idAssinaturaContrato) shows it twice under one label: same field, same value.
        const [parent, ...own] = child.columns;
        expectDistinctLabels(
          [parent, ...own.filter((c) => c.key !== parent.key)].map((c) => c.label),
          `${op.key}.${child.field}`,
        );
        expect(child.columns[0]).toEqual({ key: op.idField, label: columns.find((c) => c.key === op.idField)?.label, cell: 'integer' });
      }
    }
  });

  it('every column note explains something, and the id column comes first', () => {
    const operations = Object.values(m.listings) as ListOperation[];
    for (const op of operations) {
      const { columns } = m.tableSpec(op);
      expect(columns[0].key, op.key).toBe(op.idField);
      for (const c of columns) if (c.note !== undefined) expect(c.note.length, `${op.key}.${c.key}`).toBeGreaterThan(20);
    }
  });

  it('names the listings and their filters as the import form offers them', () => {
    const operations = Object.values(m.listings) as ListOperation[];
    expect(operations.map((op) => [op.key, op.label])).toEqual([
      ['clientes', 'Clientes'],
      ['faturas', 'Faturas'],
      ['nfse', 'NFS-e'],
      ['cobrancas', 'Cobranças e boletos'],
      ['transacoes', 'Transações'],
      ['assinaturas', 'Assinaturas e contratos'],
    ]);
    for (const op of operations) {
      expectDistinctLabels(
        op.filters.map((f) => f.label),
        `${op.key} filters`,
      );
      expectDistinctLabels(
        op.filters.map((f) => f.name),
        `${op.key} filter names`,
      );
    }
  });
});
