/** The demo organizations. Keys depend only on the organization, so they survive reseeding. */
import type { OrgInfo } from './types.js';

export interface OrgDef extends OrgInfo {
  index: number;
  cnpj: string;
}

export const ORG_DEFS: readonly OrgDef[] = [
  { index: 0, name: 'Aurora Contabilidade Ltda', apiKey: 'sbx_live_7f3a9c1e4b2d4e8fa1c06d5b9e2f7a31', hasCityHallIntegration: true, cnpj: '11444777000161' },
  { index: 1, name: 'Ipê Assessoria Contábil S/S', apiKey: 'sbx_live_0c52e8d7a9b64f13b7e2c4d1a6f09b88', hasCityHallIntegration: true, cnpj: '04252011000110' },
  { index: 2, name: 'Demo Sem Prefeitura ME', apiKey: 'sbx_live_e91b3f6a2d7c48c5a0f4b8e1d3c2a5f7', hasCityHallIntegration: false, cnpj: '33000167000101' },
];

export function publicOrg(o: OrgDef): OrgInfo {
  return { name: o.name, apiKey: o.apiKey, hasCityHallIntegration: o.hasCityHallIntegration };
}
