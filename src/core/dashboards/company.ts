/**
 * The company a panel of one company is of, in words, so that thirty closes
 * are thirty tabs a person tells apart: the organization's razão social and
 * CNPJ when its reports' run knew them, else the connection's name. A
 * consolidated panel names each company in its own columns instead.
 */
import { formatCpfCnpj } from '../../api/filters';
import type { Report } from '../reports/reports';

/** `document`: with the CNPJ (a title); without it, the name alone (a tab). Undefined for a consolidated report. */
export function companyOf(report: Report, document = true): string | undefined {
  if (report.companies) return undefined;
  const org = report.organizations?.length === 1 ? report.organizations[0] : undefined;
  if (!org?.own || !org.name) return report.connection || undefined;
  const label = org.document.length === 14 ? 'CNPJ' : 'CPF';
  return document && org.document ? `${org.name} (${label} ${formatCpfCnpj(org.document)})` : org.name;
}
