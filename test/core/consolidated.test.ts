/** The pure parts of consolidated reports: sharing a wave, saying what failed, resolving companies, child keys by company. */
import { describe, expect, it } from 'vitest';
import { childKeys, parentKey } from '../../src/core/child-sheet';
import { failureText, shareWave } from '../../src/core/consolidated-job';
import { resolveCompanies } from '../../src/core/reports';

describe('sharing a wave between companies', () => {
  it('gives each first wave its two pages, then shares the rest in turn, never more than a company has left', () => {
    expect(
      shareWave([
        { pages: 2, first: true },
        { pages: 2, first: true },
        { pages: 2, first: true },
      ]),
    ).toEqual([2, 2, 2]);
    expect(
      shareWave([
        { pages: 10, first: false },
        { pages: 10, first: false },
        { pages: 1, first: false },
      ]),
    ).toEqual([5, 4, 1]);
    expect(
      shareWave([
        { pages: 10, first: false },
        { pages: 2, first: true },
      ]),
    ).toEqual([8, 2]);
  });

  it('a company with no pages left asks none, even on its first wave', () => {
    expect(
      shareWave([
        { pages: 0, first: true },
        { pages: 10, first: false },
      ]),
    ).toEqual([0, 10]);
  });

  it('a first wave that no longer fits waits for the next one', () => {
    const wants = Array.from({ length: 6 }, () => ({ pages: 2, first: true }));
    expect(shareWave(wants)).toEqual([2, 2, 2, 2, 2, 0]);
    expect(shareWave(wants).reduce((a, b) => a + b, 0)).toBe(10);
  });
});

describe('what failed', () => {
  it('names each failed company and why, bounded', () => {
    const text = failureText([{ name: 'Empresa C', message: 'Chave recusada (401).' }]);
    expect(text).toMatch(/^Uma empresa falhou — "Empresa C": Chave recusada \(401\)\. As linhas/);
    expect(text).toMatch(/valores da última atualização boa/);
    const long = failureText(Array.from({ length: 20 }, (_, i) => ({ name: `E${i}`, message: 'x'.repeat(1000) })));
    expect(long.length).toBeLessThanOrEqual(1500);
    expect(long).toMatch(/^20 empresas falharam/);
  });

  it('joins several companies, trims only trailing dots, and says "falhou" when there is no message', () => {
    expect(failureText([{ name: 'A', message: 'Versão 2.1 recusada...' }, { name: 'B' }])).toBe(
      '2 empresas falharam — "A": Versão 2.1 recusada; "B": falhou. As linhas dessas empresas ficaram com os valores da última atualização boa, e a aba ficou marcada como incompleta.',
    );
  });
});

describe('the companies of a run', () => {
  const own = [
    { id: 'a', name: 'Empresa A' },
    { id: 'b', name: 'Empresa B' },
  ];
  it('"todas" is the owner\'s connections at the run; chosen ones by id, names as they are now', () => {
    expect(resolveCompanies({ all: true, ids: [] }, own)).toEqual(own);
    expect(resolveCompanies({ all: false, ids: ['b', 'b'] }, [{ id: 'b', name: 'Renomeada' }])).toEqual([{ id: 'b', name: 'Renomeada' }]);
  });
  it('a chosen connection the owner no longer has stays, to fail alone', () => {
    expect(resolveCompanies({ all: false, ids: ['a', 'z'] }, own)).toEqual([own[0], { id: 'z', name: 'conexão z (não existe mais)' }]);
  });
});

describe('child keys in a consolidated sheet', () => {
  it("two companies' record 17 are different parents", () => {
    const rows = [
      ['Empresa A', 'a', 17, 1],
      ['Empresa B', 'b', 17, 1],
      ['Empresa A', 'a', 17, 2],
    ];
    expect(rows.map((r) => parentKey(r, 2))).toEqual(['a|17', 'b|17', 'a|17']);
    expect(childKeys(rows, 3, 2)).toEqual(['a|17#1', 'b|17#1', 'a|17#2']);
    expect(childKeys(rows, null, 2)).toEqual(['a|17@1', 'b|17@1', 'a|17@2']);
    expect(parentKey(['Empresa A', 'a', '', 1], 2)).toBe('');
    expect(parentKey([17, 1])).toBe('17');
  });
});
