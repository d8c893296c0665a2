/**
 * Which organization a key reaches. The service has no endpoint that names
 * it, but its data is scoped to the organization: two keys of one company
 * list the same customers, two companies never the same record. So the
 * organization is known by its first registered customer record (the lowest
 * id of the first page of customers, with its CPF/CNPJ), and named by it when
 * that record holds no role (not a customer, supplier, partner or employee):
 * then it is the organization's own record.
 */
import type { BillingClient } from '../../api/client';
import type { ApiRecord } from '../../api/envelopes';
import { formatCpfCnpj } from '../../api/filters';

export interface Organization {
  /** Equal for two keys of one organization: the first record's id and CPF/CNPJ. */
  key: string;
  /** The first record's legal or trade name ('' when it has none). */
  name: string;
  /** Its CPF/CNPJ, digits only. */
  document: string;
  /** The record is the organization's own (it holds no role), so `name` is the company's. */
  own: boolean;
}

const ROLES = ['isCliente', 'isFornecedor', 'isParceiro', 'isFuncionario'] as const;

/** The organization the first customer records of a key tell; undefined when it has none. */
export function organizationFrom(records: readonly ApiRecord[]): Organization | undefined {
  let first: ApiRecord | undefined;
  for (const r of records) if (typeof r.idCliente === 'number' && (!first || r.idCliente < (first.idCliente as number))) first = r;
  if (!first) return undefined;
  const document = typeof first.cpfCnpj === 'string' ? first.cpfCnpj : '';
  const name = String(first.razaoSocial || first.nomeFantasia || '').trim();
  return { key: `${first.idCliente}:${document}`, name, document, own: ROLES.every((role) => first[role] === false) };
}

/** Reads the first wave of customers (the pages Testar reads first too) and tells the organization; a failure throws. */
export function identifyOrganization(client: BillingClient): Organization | undefined {
  const pager = client.pager('clientes', {}, { maxPages: 2 });
  return organizationFrom(pager.nextWave().flatMap((page) => page.records));
}

/** The organization in words: its name and CNPJ when the record is its own, else the record it is known by. */
export function describeOrganization(org: Organization): string {
  const doc = org.document ? ` (${org.document.length === 14 ? 'CNPJ' : 'CPF/CNPJ'} ${formatCpfCnpj(org.document)})` : '';
  if (!org.name) return `a organização do cadastro ${org.key.split(':')[0]}`;
  return org.own ? `"${org.name}"${doc}` : `a organização cujo primeiro cadastro é "${org.name}"${doc}`;
}

/** Whether two lists reach the same organizations, whatever their order or repeats (a consolidated report lists each of its connections'). */
export function sameOrganizations(a: readonly Organization[], b: readonly Organization[]): boolean {
  const keys = (list: readonly Organization[]) => [...new Set(list.map((o) => o.key))].sort().join('\u0000');
  return keys(a) === keys(b);
}

/** Connections (or anything with one) that reach one organization, the first of each kept, the others said. */
export interface Distinct<T> {
  kept: T[];
  /** Each left out, with the kept one that reaches its organization. */
  skipped: Array<{ left: T; used: T }>;
}

/** Keeps the first of each organization in `list`'s order; an unknown organization is always kept (nothing to compare). */
export function distinctOrganizations<T extends { organization?: Organization }>(list: readonly T[]): Distinct<T> {
  const first = new Map<string, T>();
  const out: Distinct<T> = { kept: [], skipped: [] };
  for (const item of list) {
    const key = item.organization?.key;
    const used = key === undefined ? undefined : first.get(key);
    if (used) out.skipped.push({ left: item, used });
    else {
      if (key !== undefined) first.set(key, item);
      out.kept.push(item);
    }
  }
  return out;
}
