/** One row of the Diagnóstico sheet: the assumption, what was observed, the verdict and, for a measurement, the figures beside the cost model's. */

/**
 * OK and FALHA judge an assumption; AVISO is a problem the add-on survives;
 * INFO reports what was seen where either answer is handled; VERIFICAR is
 * what this run could not observe.
 */
export type Verdict = 'OK' | 'FALHA' | 'AVISO' | 'INFO' | 'VERIFICAR';
export type Figures = [measuredMs: number, optimisticMs: number, pessimisticMs: number];
export type Row = [assumption: string, observed: string, verdict: Verdict, ...figures: Figures | []];

export const HEADER = ['Suposição', 'Observado', 'Veredito', 'Medido (ms)', 'Modelo otimista (ms)', 'Modelo pessimista (ms)'];

/** The check's row; an exception is what was observed, and a FALHA. */
export function attempt(assumption: string, check: () => [string, Verdict, ...(Figures | [])]): Row {
  try {
    return [assumption, ...check()];
  } catch (err) {
    return [assumption, `Erro: ${String((err as Error).message).slice(0, 300)}`, 'FALHA'];
  }
}
