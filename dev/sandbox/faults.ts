/** Chooses the faults that apply to one request, consuming "next N" counts. */
import type { Rng } from './rng.js';
import type { FaultRule, SandboxConfig } from './types.js';

export interface FaultDecision {
  latencyMs: number;
  ignorePage: boolean;
  /** status, hang, reset or commitThenFail; at most one. */
  terminal: FaultRule | null;
  kinds: string[];
}

function matches(rule: FaultRule, method: string, path: string, org: string | null): boolean {
  return (
    (rule.method === undefined || rule.method.toUpperCase() === method) &&
    path.startsWith(rule.pathPrefix ?? '/v2') &&
    (rule.org === undefined || rule.org === org)
  );
}

/**
 * Every matching latency and ignorePage rule applies; the first terminal rule
 * that fires wins and later ones are not consulted (nor consumed). A rule with
 * `times` loses one count per matching request it is consulted for, fired or not.
 */
export function decideFaults(config: SandboxConfig, rng: Rng, method: string, path: string, org: string | null = null): FaultDecision {
  const d: FaultDecision = { latencyMs: 0, ignorePage: false, terminal: null, kinds: [] };
  for (const rule of config.faults) {
    if (!matches(rule, method, path, org)) continue;
    const terminalKind = rule.kind !== 'latency' && rule.kind !== 'ignorePage';
    if (terminalKind && d.terminal) continue;
    if (rule.times !== undefined) rule.times -= 1;
    if (rule.rate !== undefined && rng.next() >= rule.rate) continue;
    d.kinds.push(rule.kind);
    if (rule.kind === 'latency') d.latencyMs += rule.ms + (rule.jitterMs ? rng.next() * rule.jitterMs : 0);
    else if (rule.kind === 'ignorePage') d.ignorePage = true;
    else d.terminal = rule;
  }
  config.faults = config.faults.filter((r) => r.times === undefined || r.times > 0);
  return d;
}
