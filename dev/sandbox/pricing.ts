/** Subscription value computation, shared by the seeded data and the write operations. */
import { competenciaKey, competenciaOf, TODAY } from './dates.js';
import { roundMoney } from './rng.js';

export interface DiscountInput {
  tipoDesconto: string;
  /** As requested: positive (percent for PERCENTUAL, amount for VALOR). */
  valorDesconto: number;
  competenciaInicial: string;
  competenciaFinal: string;
}

export interface PriceInput {
  tipoCalculo: string;
  quantidade: number;
  valorUnitario: number;
  competenciaInicial: string;
  descontos: readonly DiscountInput[];
}

export interface Price {
  valorBruto: number;
  /** Zero or negative. */
  valorDesconto: number;
  valorLiquido: number;
}

/**
 * Discounts count when their competência range covers the reference month:
 * the subscription's first competência, or the current month if that is later.
 * Each discount is rounded to cents on its own; the total never exceeds the gross value.
 */
export function priceSubscription(p: PriceInput): Price {
  const bruto = p.tipoCalculo === 'PRECO_POR_UNIDADE' ? roundMoney(p.quantidade * p.valorUnitario) : roundMoney(p.valorUnitario);
  const ref = Math.max(competenciaKey(p.competenciaInicial), competenciaKey(competenciaOf(TODAY)));
  let descontoCents = 0;
  for (const d of p.descontos) {
    if (competenciaKey(d.competenciaInicial) > ref || competenciaKey(d.competenciaFinal) < ref) continue;
    const amount = d.tipoDesconto === 'PERCENTUAL' ? roundMoney((bruto * d.valorDesconto) / 100) : roundMoney(d.valorDesconto);
    descontoCents += Math.round(amount * 100);
  }
  const brutoCents = Math.round(bruto * 100);
  descontoCents = Math.min(descontoCents, brutoCents);
  return {
    valorBruto: brutoCents / 100,
    valorDesconto: descontoCents === 0 ? 0 : -descontoCents / 100,
    valorLiquido: (brutoCents - descontoCents) / 100,
  };
}
