/** Runtime configuration: defaults and the checked merge of patches. */
import { LISTING_NAMES, type ConfigPatch, type FaultRule, type ListingName, type PagingStyle, type SandboxConfig } from './types.js';

/**
 * A mix, as a service grown over time shows: invoices have the "current
 * variant" full paging; the others give less, so a client cannot rely on totals.
 */
export const DEFAULT_PAGING_STYLES: Record<ListingName, PagingStyle> = {
  clientes: 'empty',
  faturas: 'full',
  nfse: 'totals',
  cobrancas: 'page',
  transacoes: 'full',
  assinaturas: 'empty',
};

export function defaultConfig(): SandboxConfig {
  return {
    pageBase: 1,
    pagingStyles: { ...DEFAULT_PAGING_STYLES },
    subscriptionListShape: 'record',
    emissionShape: 'record',
    duplicateIntegrationId: 'accept',
    faults: [],
  };
}

const PAGING_STYLES: readonly PagingStyle[] = ['full', 'totals', 'page', 'empty'];
const FAULT_KINDS = ['latency', 'status', 'hang', 'reset', 'commitThenFail', 'lateCommit', 'ignorePage', 'echoKey'];

function checkFault(f: FaultRule, i: number): string[] {
  const e: string[] = [];
  const at = `faults[${i}]`;
  if (!f || typeof f !== 'object' || !FAULT_KINDS.includes((f as { kind: string }).kind)) return [`${at}.kind must be one of ${FAULT_KINDS.join(', ')}`];
  if (f.times !== undefined && (!Number.isInteger(f.times) || f.times < 1)) e.push(`${at}.times must be a positive integer`);
  if (f.rate !== undefined && (typeof f.rate !== 'number' || f.rate < 0 || f.rate > 1)) e.push(`${at}.rate must be within 0..1`);
  if (f.pathPrefix !== undefined && typeof f.pathPrefix !== 'string') e.push(`${at}.pathPrefix must be a string`);
  if (f.method !== undefined && typeof f.method !== 'string') e.push(`${at}.method must be a string`);
  if (f.org !== undefined && typeof f.org !== 'string') e.push(`${at}.org must be an organization's name`);
  if (f.kind === 'latency' && (typeof f.ms !== 'number' || f.ms < 0)) e.push(`${at}.ms must be a number >= 0`);
  if (f.kind === 'echoKey' && (!Number.isInteger(f.status) || f.status < 400 || f.status > 599)) e.push(`${at}.status must be 400..599`);
  if (f.kind === 'status' && (!Number.isInteger(f.status) || f.status < 400 || f.status > 599)) e.push(`${at}.status must be 400..599`);
  if (f.kind === 'commitThenFail' && f.failWith !== 'status500' && f.failWith !== 'reset') e.push(`${at}.failWith must be status500 or reset`);
  if (f.kind === 'lateCommit') {
    if (!['status500', 'status503', 'reset', 'hang'].includes(f.failWith)) e.push(`${at}.failWith must be status500, status503, reset or hang`);
    if (f.afterRequests !== undefined && (!Number.isInteger(f.afterRequests) || f.afterRequests < 1)) e.push(`${at}.afterRequests must be a positive integer`);
    if (f.afterMs !== undefined && (typeof f.afterMs !== 'number' || f.afterMs < 0)) e.push(`${at}.afterMs must be a number >= 0`);
  }
  return e;
}

/** Returns the new configuration, or the list of problems with the patch. */
export function applyPatch(config: SandboxConfig, patch: ConfigPatch): SandboxConfig | string[] {
  const errors: string[] = [];
  const next: SandboxConfig = { ...config, pagingStyles: { ...config.pagingStyles }, faults: [...config.faults] };
  if (patch.pageBase !== undefined) {
    if (patch.pageBase !== 0 && patch.pageBase !== 1) errors.push('pageBase must be 0 or 1');
    else next.pageBase = patch.pageBase;
  }
  for (const [k, v] of Object.entries(patch.pagingStyles ?? {})) {
    if (!LISTING_NAMES.includes(k as ListingName)) errors.push(`pagingStyles.${k}: unknown listing`);
    else if (!PAGING_STYLES.includes(v as PagingStyle)) errors.push(`pagingStyles.${k} must be one of ${PAGING_STYLES.join(', ')}`);
    else next.pagingStyles[k as ListingName] = v as PagingStyle;
  }
  if (patch.subscriptionListShape !== undefined) {
    if (!['array', 'record', 'envelope'].includes(patch.subscriptionListShape)) errors.push('subscriptionListShape must be array, record or envelope');
    else next.subscriptionListShape = patch.subscriptionListShape;
  }
  if (patch.emissionShape !== undefined) {
    if (!['record', 'array'].includes(patch.emissionShape)) errors.push('emissionShape must be record or array');
    else next.emissionShape = patch.emissionShape;
  }
  if (patch.duplicateIntegrationId !== undefined) {
    if (!['accept', 'reject'].includes(patch.duplicateIntegrationId)) errors.push('duplicateIntegrationId must be accept or reject');
    else next.duplicateIntegrationId = patch.duplicateIntegrationId;
  }
  for (const [field, list] of [
    ['faults', patch.faults],
    ['addFaults', patch.addFaults],
  ] as const) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push(`${field} must be an array`);
      continue;
    }
    list.forEach((f, i) => errors.push(...checkFault(f, i).map((m) => m.replace('faults', field))));
    if (field === 'faults') next.faults = list.map((f) => ({ ...f }));
    else next.faults.push(...list.map((f) => ({ ...f })));
  }
  return errors.length ? errors : next;
}
