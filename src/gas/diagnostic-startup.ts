/**
 * The Diagnóstico's rows on what every execution pays before its first line:
 * no execution can time its own start-up, so the hourly run, when it had
 * nothing due, wrote what it took from its trigger's firing (run-seen.ts),
 * and these rows set that beside the cost model's start-up.
 */
import { COST_FIGURES } from './cost-model';
import { ms } from './diagnostic-measures';
import type { Row, Verdict } from './diagnostic-row';
import { IDLE_RUN_KEY, type IdleRunSeen } from './run-seen';
import { spreadsheetTimeZone, userStore } from './services';

const STARTUP = 'A partida de uma execução: do disparo do gatilho à primeira linha do complemento (toda execução a paga antes de fazer qualquer coisa)';
const IDLE = 'Uma execução de hora em hora sem nada a fazer, do disparo do gatilho ao fim';
/** The trigger's event tells its time in whole seconds: a start-up read from it is up to this much too long. */
const EVENT_RESOLUTION_MS = 999;

/** The start-up, known to within a second, against the model's worst: AVISO only when even its least is above it. */
function startupVerdict(startupMs: number): [string, Verdict] {
  const least = Math.max(0, startupMs - EVENT_RESOLUTION_MS);
  const worst = COST_FIGURES.pessimistic.startupMs;
  const range = `entre ${ms(least)} e ${ms(startupMs)} (o gatilho diz a hora do disparo em segundos inteiros)`;
  if (startupMs <= worst) return [`${range}; dentro do modelo`, 'OK'];
  if (least > worst)
    return [`${range}; acima do modelo pessimista (${ms(worst)}): as execuções custam mais que o modelo supõe; envie esta aba aos desenvolvedores`, 'AVISO'];
  return [`${range}; pode passar do modelo pessimista (${ms(worst)}): rode o diagnóstico de novo depois de outra hora sem nada a fazer`, 'INFO'];
}

export function startupRows(): Row[] {
  const raw = userStore().get(IDLE_RUN_KEY);
  if (!raw) {
    const why =
      'não medido: nenhuma execução de hora em hora sem nada a fazer registrada para você ainda (uma implantação de teste nunca executa gatilhos): agende um relatório num complemento instalado, espere uma hora em que nada vença e rode o diagnóstico de novo';
    return [
      [STARTUP, why, 'VERIFICAR'],
      [IDLE, why, 'VERIFICAR'],
    ];
  }
  const seen = JSON.parse(raw) as IdleRunSeen;
  const when = Utilities.formatDate(new Date(seen.at), spreadsheetTimeZone(), 'dd/MM/yyyy HH:mm');
  const [observed, verdict] = startupVerdict(seen.startupMs);
  return [
    [STARTUP, `${observed}; medida na execução de ${when}`, verdict, seen.startupMs, COST_FIGURES.optimistic.startupMs, COST_FIGURES.pessimistic.startupMs],
    [IDLE, `${ms(seen.durationMs)} em ${when}, a partida incluída: o Google conta esse tempo na cota diária de gatilhos`, 'INFO'],
  ];
}
