/**
 * What the client's request check tells a caller whose body breaks the write
 * table: the field, and in Portuguese what to fix, for every kind of field and
 * every rule across fields, before anything is sent.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { WriteKey } from '../../src/api/writes';
import { fresh } from './fresh';

let m: Awaited<ReturnType<typeof fresh>>;
beforeEach(async () => {
  m = await fresh();
});

const custom = {
  idIntegracao: 'CLI-1',
  idCliente: 1,
  dataAdesao: '2026-11-01',
  competenciaInicial: '11/2026',
  periodicidade: 'MENSAL',
  idProduto: 2,
  descricaoAssinaturaContrato: 'Honorários',
  valor: 350,
  formaFaturamentoAssinatura: 'AGRUPADA',
  diaVencimentoCobranca: 10,
};
const discount = {
  idIntegracao: 'D1',
  descricao: 'Fidelidade',
  tipoDesconto: 'PERCENTUAL',
  valorDesconto: 10,
  competenciaInicial: '11/2026',
  competenciaFinal: '10/2027',
};
const plan = {
  idIntegracao: 'PLANO-1',
  idCliente: 1,
  dataAdesao: '2026-11-01',
  competenciaInicial: '11/2026',
  idPlano: 3,
  quantidade: 1,
  formaFaturamentoAssinatura: 'INDIVIDUAL',
  diaVencimentoCobranca: 28,
  descontos: [discount],
};

function issues(key: WriteKey, body: unknown) {
  const checked = m.checkBody(key, body);
  return checked.ok ? [] : checked.issues;
}

describe('checkBody', () => {
  it('accepts bodies within every limit, boundaries included', () => {
    expect(issues('criarAssinaturaPersonalizada', custom)).toEqual([]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, diaVencimentoCobranca: 28, valor: 0.01, idIntegracao: 'x'.repeat(60) })).toEqual([]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, diaVencimentoCobranca: 1, valor: 10.1, descricaoAssinaturaContrato: 'd'.repeat(255) })).toEqual(
      [],
    );
    expect(issues('criarAssinaturaPlano', plan)).toEqual([]);
    expect(issues('criarAssinaturaPlano', { ...plan, descontos: [] })).toEqual([]);
    expect(issues('emitirNfse', { idFatura: 1 })).toEqual([]);
  });

  it('names each number out of its limits', () => {
    expect(issues('emitirNfse', { idFatura: 0 })).toEqual([{ field: 'idFatura', message: 'o valor mínimo é 1' }]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, diaVencimentoCobranca: 29 })).toEqual([
      { field: 'diaVencimentoCobranca', message: 'o valor máximo é 28' },
    ]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, diaVencimentoCobranca: 0 })).toEqual([
      { field: 'diaVencimentoCobranca', message: 'o valor mínimo é 1' },
    ]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, valor: 0 })).toEqual([{ field: 'valor', message: 'o valor precisa ser maior que zero' }]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, valor: 0.009 })).toEqual([
      { field: 'valor', message: 'o valor precisa ser maior que zero' },
      { field: 'valor', message: 'use no máximo duas casas decimais' },
    ]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, valor: 10.001 })).toEqual([{ field: 'valor', message: 'use no máximo duas casas decimais' }]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, valor: -5 })).toEqual([{ field: 'valor', message: 'o valor precisa ser maior que zero' }]);
  });

  it('says which type a field expected', () => {
    expect(issues('emitirNfse', { idFatura: 1.5 })).toEqual([{ field: 'idFatura', message: 'esperava um número inteiro' }]);
    expect(issues('emitirNfse', {})).toEqual([{ field: 'idFatura', message: 'esperava um número' }]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, valor: '350' })).toEqual([{ field: 'valor', message: 'esperava um número' }]);
    expect(issues('criarAssinaturaPersonalizada', { ...custom, descricaoAssinaturaContrato: 5 })).toEqual([
      { field: 'descricaoAssinaturaContrato', message: 'esperava um texto' },
    ]);
    expect(
      issues('atualizarAssinaturaPersonalizada', { valor: 1, descricaoAssinaturaContrato: 'x', isAtualizaDiscriminacaoNfse: 'Sim', discriminacaoNfse: '' }),
    ).toEqual([{ field: 'isAtualizaDiscriminacaoNfse', message: 'esperava verdadeiro ou falso' }]);
    expect(issues('criarAssinaturaPlano', { ...plan, descontos: 'nenhum' })).toEqual([{ field: 'descontos', message: 'esperava uma lista' }]);
    expect(issues('criarAssinaturaPlano', { ...plan, descontos: [5] })).toEqual([{ field: 'descontos.0', message: 'esperava um objeto' }]);
    expect(issues('emitirNfse', null)).toEqual([{ field: '(corpo)', message: 'esperava um objeto' }]);
  });

  it('checks dates, competências, choices and texts against their formats and limits', () => {
    const bad = (field: string, value: unknown) => issues('criarAssinaturaPersonalizada', { ...custom, [field]: value });
    for (const date of ['01/11/2026', '2026-02-30', '2026-11-1']) expect(bad('dataAdesao', date)).toEqual([{ field: 'dataAdesao', message: 'use AAAA-MM-DD' }]);
    for (const month of ['2026-11', '13/2026', '1/2026'])
      expect(bad('competenciaInicial', month)).toEqual([{ field: 'competenciaInicial', message: 'use MM/AAAA' }]);
    expect(bad('periodicidade', 'DIARIA')).toEqual([{ field: 'periodicidade', message: 'escolha um de MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL, ANUAL' }]);
    expect(bad('formaFaturamentoAssinatura', 'agrupada')).toEqual([{ field: 'formaFaturamentoAssinatura', message: 'escolha um de AGRUPADA, INDIVIDUAL' }]);
    expect(bad('descricaoAssinaturaContrato', 'd'.repeat(256))).toEqual([{ field: 'descricaoAssinaturaContrato', message: 'use no máximo 255 caracteres' }]);
    expect(bad('idIntegracao', '')).toEqual([{ field: 'idIntegracao', message: 'informe o ID de integração' }]);
    expect(bad('idIntegracao', 'CLI 1')).toEqual([{ field: 'idIntegracao', message: 'não use espaços no ID de integração' }]);
    expect(bad('idIntegracao', ' CLI1')).toEqual([{ field: 'idIntegracao', message: 'não use espaços no ID de integração' }]);
    expect(bad('idIntegracao', 'x'.repeat(61))).toEqual([{ field: 'idIntegracao', message: 'use no máximo 60 caracteres' }]);
    const update = { valor: 1, descricaoAssinaturaContrato: 'x', isAtualizaDiscriminacaoNfse: true, discriminacaoNfse: 'n'.repeat(2001) };
    expect(issues('atualizarAssinaturaPersonalizada', update)).toEqual([{ field: 'discriminacaoNfse', message: 'use no máximo 2.000 caracteres' }]);
  });

  it('applies the rules across fields of each discount and of the NFS-e text', () => {
    const withDiscount = (d: Record<string, unknown>) => issues('criarAssinaturaPlano', { ...plan, descontos: [discount, { ...discount, ...d }] });
    expect(withDiscount({ valorDesconto: 100 })).toEqual([]);
    expect(withDiscount({ valorDesconto: 100.5 })).toEqual([{ field: 'descontos.1.valorDesconto', message: 'um desconto PERCENTUAL vai até 100' }]);
    expect(withDiscount({ tipoDesconto: 'VALOR', valorDesconto: 150 })).toEqual([]);
    expect(withDiscount({ competenciaFinal: '11/2026' })).toEqual([]);
    expect(withDiscount({ competenciaInicial: '12/2026', competenciaFinal: '11/2026' })).toEqual([
      { field: 'descontos.1.competenciaFinal', message: 'é anterior à competência inicial 12/2026' },
    ]);
    expect(withDiscount({ competenciaInicial: '01/2027', competenciaFinal: '12/2026' })).toEqual([
      { field: 'descontos.1.competenciaFinal', message: 'é anterior à competência inicial 01/2027' },
    ]);
    // A competência out of format is said once, by its own check, not again by the rule.
    expect(withDiscount({ competenciaInicial: '2027-01', competenciaFinal: '12/2026' })).toEqual([
      { field: 'descontos.1.competenciaInicial', message: 'use MM/AAAA' },
    ]);
    expect(withDiscount({ competenciaInicial: '12/2026', competenciaFinal: '2026-11' })).toEqual([
      { field: 'descontos.1.competenciaFinal', message: 'use MM/AAAA' },
    ]);
    const update = { valor: 1, descricaoAssinaturaContrato: 'x', isAtualizaDiscriminacaoNfse: true, discriminacaoNfse: '' };
    expect(issues('atualizarAssinaturaPersonalizada', update)).toEqual([
      {
        field: 'discriminacaoNfse',
        message: 'está vazia, mas "Atualizar discriminação da NFS-e" é Sim: escreva o texto da nota ou mude para Não',
      },
    ]);
    expect(issues('atualizarAssinaturaPersonalizada', { ...update, discriminacaoNfse: 'Serviços' })).toEqual([]);
  });

  it('the discount rules read a row of values too, whatever their types', () => {
    const rules = m.writes.criarAssinaturaPlano.fields.descontos.rules ?? [];
    expect(m.ruleIssues(rules, { tipoDesconto: 'PERCENTUAL', valorDesconto: '150' })).toEqual([]);
    expect(m.ruleIssues(rules, { tipoDesconto: 'PERCENTUAL', valorDesconto: 150 })).toEqual([
      { field: 'valorDesconto', message: 'um desconto PERCENTUAL vai até 100' },
    ]);
    expect(m.ruleIssues(rules, { competenciaInicial: 202612, competenciaFinal: '11/2026' })).toEqual([]);
    expect(m.ruleIssues(rules, { competenciaInicial: '12/2026', competenciaFinal: 202611 })).toEqual([]);
    expect(Object.keys(m.discountFields)).toEqual(['idIntegracao', 'descricao', 'tipoDesconto', 'valorDesconto', 'competenciaInicial', 'competenciaFinal']);
  });
});

describe('write', () => {
  it('finds an operation by its key and refuses an unknown one', () => {
    expect(m.write('emitirNfse')).toBe(m.writes.emitirNfse);
    expect(() => m.write('apagarTudo')).toThrow('Operação de escrita desconhecida: apagarTudo');
  });

  it('offers the operations in the sidebar order, each with its template sheet', () => {
    expect(Object.values(m.writes).map((op) => [op.key, op.method, op.sheetName])).toEqual([
      ['criarAssinaturaPersonalizada', 'POST', 'Lote · Assinaturas personalizadas'],
      ['atualizarAssinaturaPersonalizada', 'PUT', 'Lote · Atualizar personalizadas'],
      ['criarAssinaturaPlano', 'POST', 'Lote · Assinaturas de plano'],
      ['atualizarAssinaturaPlano', 'PUT', 'Lote · Atualizar planos'],
      ['emitirNfse', 'POST', 'Lote · Emitir NFS-e'],
    ]);
  });
});
