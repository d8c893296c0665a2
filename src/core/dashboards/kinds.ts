/**
 * The Painéis, in the order the sidebar offers them. Each kind is one room of
 * kinds/ (what it reads, computes and writes); a new kind is its room, named
 * here.
 */
import { faturamento } from './kinds/faturamento';
import { fechamento } from './kinds/fechamento';
import { fluxoCaixa } from './kinds/fluxo-caixa';
import { inadimplencia } from './kinds/inadimplencia';
import { semNfse } from './kinds/sem-nfse';
import { vencimentos } from './kinds/vencimentos';
import type { PanelKind } from './panel';

/** Every kind by the key its dashboards are saved with. */
export type Kinds = Readonly<Record<string, PanelKind>>;

export const KINDS = {
  vencimentos,
  faturamento,
  inadimplencia,
  'sem-nfse': semNfse,
  'fluxo-caixa': fluxoCaixa,
  fechamento,
} satisfies Kinds;

export type DashboardKind = keyof typeof KINDS;
