/**
 * The five bulk operations as sheets, derived from the write table: which
 * columns a template gets, what is written beside each row, which column goes
 * into the path and which list comes from the Descontos sheet.
 */
import { describe, expect, it } from 'vitest';
import { bulkOperation, bulkOperations, DISCOUNT_SHEET, discountColumns } from '../../../src/core/bulk/definitions';

const resultLabels = (key: string) => bulkOperation(key).results.map((r) => r.label);

describe('bulk operations', () => {
  // The first test to read each operation builds it (once per module): it checks every derived part, so a wrong derivation fails here.
  it('each operation as a sheet: its columns, what goes into the path, its rules and linked discounts', () => {
    const shape = (key: string) => {
      const op = bulkOperation(key);
      return { columns: op.columns.map((c) => c.field), pathId: op.pathId, rules: op.rules.map((r) => r.field), discounts: op.discounts };
    };
    expect(shape('criarAssinaturaPlano')).toEqual({
      columns: [
        'idIntegracao',
        'idCliente',
        'dataAdesao',
        'competenciaInicial',
        'idPlano',
        'quantidade',
        'formaFaturamentoAssinatura',
        'diaVencimentoCobranca',
        'cpfCnpjCliente',
      ],
      pathId: undefined,
      rules: [],
      discounts: 'descontos',
    });
    expect(shape('atualizarAssinaturaPersonalizada')).toEqual({
      columns: ['idAssinaturaContrato', 'valor', 'descricaoAssinaturaContrato', 'isAtualizaDiscriminacaoNfse', 'discriminacaoNfse'],
      pathId: 'idAssinaturaContrato',
      rules: ['discriminacaoNfse'],
      discounts: undefined,
    });
    expect(shape('criarAssinaturaPersonalizada')).toMatchObject({ pathId: undefined, rules: [], discounts: undefined });
    expect(shape('atualizarAssinaturaPlano')).toEqual({
      columns: ['idAssinaturaContrato', 'quantidade', 'descricaoAssinaturaContrato'],
      pathId: 'idAssinaturaContrato',
      rules: [],
      discounts: undefined,
    });
    expect(shape('emitirNfse')).toEqual({ columns: ['idFatura'], pathId: undefined, rules: [], discounts: undefined });
  });

  it('an emission writes the note beside its invoice; a creation the id created; an update only its status', () => {
    expect(resultLabels('emitirNfse')).toEqual(['Status', 'ID da NFS-e', 'Número da NFS-e', 'Fatura conferida', 'Mensagem', 'Processado em']);
    expect(resultLabels('criarAssinaturaPersonalizada')).toEqual(['Status', 'ID da assinatura criada', 'Mensagem', 'Processado em']);
    expect(resultLabels('criarAssinaturaPlano')).toEqual(['Status', 'ID da assinatura criada', 'Mensagem', 'Processado em']);
    expect(resultLabels('atualizarAssinaturaPersonalizada')).toEqual(['Status', 'Mensagem', 'Processado em']);
    expect(resultLabels('atualizarAssinaturaPlano')).toEqual(['Status', 'Mensagem', 'Processado em']);
  });

  it('an update names its record in the path; a creation or an emission has no path id', () => {
    expect(bulkOperation('atualizarAssinaturaPersonalizada').pathId).toBe('idAssinaturaContrato');
    expect(bulkOperation('atualizarAssinaturaPlano').pathId).toBe('idAssinaturaContrato');
    expect(bulkOperation('criarAssinaturaPersonalizada').pathId).toBeUndefined();
    expect(bulkOperation('emitirNfse').pathId).toBeUndefined();
  });

  it('plan subscriptions take their discounts from the linked sheet, never from a column of the row', () => {
    const plano = bulkOperation('criarAssinaturaPlano');
    expect(plano.discounts).toBe('descontos');
    expect(plano.columns.map((c) => c.field)).not.toContain('descontos');
    expect(bulkOperation('criarAssinaturaPersonalizada').discounts).toBeUndefined();
    expect(discountColumns[0]).toMatchObject({ field: 'assinatura', required: true });
    expect(discountColumns.map((c) => c.field)).toContain('competenciaFinal');
    expect(DISCOUNT_SHEET).toBe('Descontos');
  });

  it('an update checks its NFS-e text against its flag; an operation without rules has none', () => {
    const update = bulkOperation('atualizarAssinaturaPersonalizada');
    expect(update.rules.map((r) => r.field)).toEqual(['discriminacaoNfse']);
    expect(bulkOperation('emitirNfse').rules).toEqual([]);
  });

  it('the operations come in the order the sidebar offers them, each with its own template sheet', () => {
    expect(Object.keys(bulkOperations)).toEqual([
      'criarAssinaturaPersonalizada',
      'atualizarAssinaturaPersonalizada',
      'criarAssinaturaPlano',
      'atualizarAssinaturaPlano',
      'emitirNfse',
    ]);
    expect(bulkOperation('emitirNfse')).toMatchObject({ key: 'emitirNfse', identity: 'idFatura', sheetName: 'Lote · Emitir NFS-e' });
    expect(bulkOperation('emitirNfse')).toBe(bulkOperations.emitirNfse);
  });

  it('an unknown operation is refused by name', () => {
    expect(() => bulkOperation('apagarTudo')).toThrow('Operação de lote desconhecida: apagarTudo');
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])('a name of one of Object’s own members (%s) is an unknown operation too', (name) => {
    expect(() => bulkOperation(name)).toThrow(`Operação de lote desconhecida: ${name}`);
  });
});
