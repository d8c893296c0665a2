/** The demo organizations. Keys depend only on the organization, so they survive reseeding. */
import type { OfficeStatus, OrgInfo } from './types.js';

export interface OrgDef extends Omit<OrgInfo, 'office'> {
  index: number;
  cnpj: string;
  /** An office company (office.ts): its place, status and invoices of the month. */
  office?: { number: number; status: OfficeStatus; invoices: number };
}

/**
 * An organization may issue more than one key (the spec says nothing of how keys are issued): an office that
 * saves a second key of the same company must see the same data through both, so the add-on can tell.
 */
const AURORA_SECOND_KEY = 'sbx_live_2d8e41c7b95a4f0e83c1a7d6e5b4f902';

export const ORG_DEFS: readonly OrgDef[] = [
  {
    index: 0,
    name: 'Aurora Contabilidade Ltda',
    apiKey: 'sbx_live_7f3a9c1e4b2d4e8fa1c06d5b9e2f7a31',
    otherKeys: [AURORA_SECOND_KEY],
    hasCityHallIntegration: true,
    cnpj: '11444777000161',
  },
  { index: 1, name: 'Ipê Assessoria Contábil S/S', apiKey: 'sbx_live_0c52e8d7a9b64f13b7e2c4d1a6f09b88', hasCityHallIntegration: true, cnpj: '04252011000110' },
  { index: 2, name: 'Demo Sem Prefeitura ME', apiKey: 'sbx_live_e91b3f6a2d7c48c5a0f4b8e1d3c2a5f7', hasCityHallIntegration: false, cnpj: '33000167000101' },
];

export function publicOrg(o: OrgDef): OrgInfo {
  return {
    name: o.name,
    apiKey: o.apiKey,
    ...(o.otherKeys ? { otherKeys: [...o.otherKeys] } : {}),
    hasCityHallIntegration: o.hasCityHallIntegration,
    ...(o.revoked ? { revoked: true } : {}),
    ...(o.office ? { office: { number: o.office.number, status: o.office.status, cnpj: o.cnpj } } : {}),
  };
}

/** Whether `key` is one of the organization's keys. */
export function hasKey(o: OrgDef, key: string): boolean {
  return o.apiKey === key || (o.otherKeys ?? []).includes(key);
}
