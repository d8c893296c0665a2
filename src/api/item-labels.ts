/**
 * Headers of the keys the service's lists carry without a schema in the spec
 * (telefones, tags, itens, centros de custo): their child sheets find columns
 * as the data brings them, and name the ones known here in Portuguese.
 */
export const ITEM_LABELS: Readonly<Record<string, string>> = {
  idTelefone: 'ID do telefone',
  tipo: 'Tipo',
  ddi: 'DDI',
  ddd: 'DDD',
  numero: 'Número',
  ramal: 'Ramal',
  isPrincipal: 'Principal',
  idTag: 'ID da tag',
  descricao: 'Descrição',
  idItemFatura: 'ID do item da fatura',
  idProduto: 'ID do produto',
  descricaoProduto: 'Descrição do produto',
  quantidade: 'Quantidade',
  valorUnitario: 'Valor unitário',
  valorTotal: 'Valor total',
  idCentroCusto: 'ID do centro de custo',
  centroCusto: 'Centro de custo',
};
