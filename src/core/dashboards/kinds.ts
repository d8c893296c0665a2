/**
 * The five Painéis: what each one shows, which listing its report must hold,
 * and what it counts (its own filter, stated on the dashboard sheet).
 */
import type { ListingKey } from '../../api/operations';

export type DashboardKind = 'vencimentos' | 'faturamento' | 'inadimplencia' | 'sem-nfse' | 'fluxo-caixa' | 'fechamento';

export interface KindDef {
  kind: DashboardKind;
  title: string;
  /** The listing of the source report. */
  listing: ListingKey;
  /** A second report this dashboard compares against (Faturas sem NFS-e: the NFS-e listing). */
  second?: ListingKey;
  /** A third report (Fechamento: the charges listing). */
  third?: ListingKey;
  /** The dashboard closes one competência, chosen when it is built. */
  competencia?: boolean;
  /** What the dashboard counts, in words (shown under "Filtros"). */
  counts: string;
}

export const KINDS: Record<DashboardKind, KindDef> = {
  vencimentos: {
    kind: 'vencimentos',
    title: 'Contas a receber por faixa de vencimento',
    listing: 'cobrancas',
    counts: 'cobranças em aberto (não quitadas, nem canceladas, nem baixadas por perda), por dias desde o vencimento até hoje',
  },
  faturamento: {
    kind: 'faturamento',
    title: 'Faturamento por competência',
    listing: 'faturas',
    counts: 'valor total das faturas não canceladas, nas últimas 12 competências (a atual inclusive)',
  },
  inadimplencia: {
    kind: 'inadimplencia',
    title: 'Inadimplência por cliente',
    listing: 'cobrancas',
    counts: 'os 20 clientes com maior valor vencido em cobranças em aberto',
  },
  'sem-nfse': {
    kind: 'sem-nfse',
    title: 'Faturas sem NFS-e',
    listing: 'faturas',
    second: 'nfse',
    counts: 'faturas não canceladas cujo ID não aparece no relatório de NFS-e',
  },
  'fluxo-caixa': {
    kind: 'fluxo-caixa',
    title: 'Fluxo de caixa por plano de contas',
    listing: 'transacoes',
    counts:
      'transações quitadas (sem transferências entre contas), pelo mês do pagamento, nos meses que o relatório cobre (pelos filtros de data de pagamento ou de vencimento; sem eles, do primeiro ao último mês com pagamento; no máximo 12)',
  },
  fechamento: {
    kind: 'fechamento',
    title: 'Fechamento da competência',
    listing: 'faturas',
    second: 'nfse',
    third: 'cobrancas',
    competencia: true,
    counts:
      'faturas, NFS-e e cobranças da competência escolhida: faturamento por tipo, notas por status com ISS retido e a recolher por alíquota, e a conferência entre elas',
  },
};

export const DASHBOARD_KINDS = Object.keys(KINDS) as DashboardKind[];
