/**
 * Every filter of the operation table, sent by the client to the sandbox: the
 * two readings of the spec must agree on each name and format. A value taken
 * from a record must find that record, and narrow the listing (a misnamed
 * parameter would be ignored and return everything).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../dev/http/node-transport';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { BillingClient } from '../../src/api/client';
import type { FilterValues } from '../../src/api/filters';
import { type ListingKey, type ListOperation, listings } from '../../src/api/operations';
import { intlZone } from '../../src/api/calendar';

type Rec = Record<string, any>;
let sb: SandboxHandle;
let data: Record<ListingKey, Rec[]>;
let customers: Map<number, Rec>;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 21, size: 'small' });
  const org = sb.orgs[0].name;
  const keys = Object.keys(listings) as ListingKey[];
  data = Object.fromEntries(await Promise.all(keys.map(async (k) => [k, await sb.dump<Rec>(org, k)]))) as Record<ListingKey, Rec[]>;
  customers = new Map(data.clientes.map((c) => [c.idCliente, c]));
});
afterAll(async () => {
  await sb?.stop();
});

const client = () =>
  new BillingClient({
    baseUrl: sb.baseUrl,
    apiKey: sb.orgs[0].apiKey,
    transport: nodeTransport,
    sleep: () => {},
    zone: intlZone('America/Sao_Paulo'),
    concurrency: 8,
  });

const ID: Record<ListingKey, string> = {
  clientes: 'idCliente',
  faturas: 'idFatura',
  nfse: 'idNotaFiscalServico',
  cobrancas: 'idCobranca',
  transacoes: 'idTransacao',
  assinaturas: 'idAssinaturaContrato',
};

const isoToBr = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const isoToBrTime = (iso: string) => `${isoToBr(iso)} ${iso.slice(11, 16)}`;
const customerOf = (r: Rec) => customers.get(r.idCliente ?? r.idClienteFornecedor);
// Charges hide cancelled ones unless asked: every probe includes them so the source record is visible.
const BASE: Partial<Record<ListingKey, FilterValues>> = { cobrancas: { isExibeCanceladas: true } };

interface Probe {
  /** Picks a record and the value to filter by. */
  pick(records: Rec[]): { record: Rec; value: unknown } | undefined;
  /** Whether a returned record satisfies the filter, where the record shows it. */
  holds?(record: Rec, value: unknown): boolean;
}

const equal = (field: string): Probe => ({
  pick: (rs) => {
    const record = rs.find((r) => r[field] !== null && r[field] !== undefined && r[field] !== '');
    return record && { record, value: record[field] };
  },
  holds: (r, v) => r[field] === v,
});
const hidden = (field: string): Probe => ({
  pick: (rs) => {
    const record = rs.find((r) => r[field] !== null && r[field] !== undefined && r[field] !== '');
    return record && { record, value: record[field] };
  },
  holds: (r, v) => r[field] === v,
});
const ofCustomer = (field: 'cpfCnpj' | 'email'): Probe => ({
  pick: (rs) => {
    const record = rs.find((r) => customerOf(r)?.[field]);
    return record && { record, value: customerOf(record)![field] };
  },
  holds: (r, v) => String(customerOf(r)?.[field]).toLowerCase() === String(v).toLowerCase() || r[field] === v,
});
const flag = (field: string): Probe => ({
  pick: (rs) => {
    // The rarer value narrows the listing.
    const yes = rs.filter((r) => r[field] === true).length;
    const value = yes * 2 < rs.length;
    const record = rs.find((r) => r[field] === value);
    return record && { record, value };
  },
  holds: (r, v) => r[field] === v,
});
const dayRange = (field: string, end: 'Inicial' | 'Final'): Probe => ({
  pick: (rs) => {
    // The median date: a bound there leaves about half of the records out.
    const sorted = rs.filter((r) => typeof r[field] === 'string').sort((a, b) => (a[field] < b[field] ? -1 : 1));
    const record = sorted[Math.floor(sorted.length / 2)];
    return record && { record, value: record[field].slice(0, 10) };
  },
  holds: (r, v) => typeof r[field] === 'string' && (end === 'Inicial' ? r[field].slice(0, 10) >= (v as string) : r[field].slice(0, 10) <= (v as string)),
});
const timeRange = (field: string, end: 'Inicial' | 'Final'): Probe => ({
  pick: (rs) => {
    const sorted = rs.filter((r) => typeof r[field] === 'string').sort((a, b) => (a[field] < b[field] ? -1 : 1));
    const record = end === 'Inicial' ? sorted.at(-3) : sorted[2];
    return record && { record, value: isoToBrTime(record[field]) };
  },
});
const ids = (field: string): Probe => ({
  pick: (rs) => {
    const record = rs[3];
    return record && { record, value: [record[field], rs[7][field]] };
  },
  holds: (r, v) => (v as number[]).includes(r[field]),
});

const PROBES: Record<ListingKey, Record<string, Probe>> = {
  clientes: {
    idCliente: equal('idCliente'),
    idIntegracao: equal('idIntegracao'),
    cpfCnpj: equal('cpfCnpj'),
    email: ofCustomer('email'),
    isAtivo: flag('isAtivo'),
    isCliente: flag('isCliente'),
    isFornecedor: flag('isFornecedor'),
    isParceiro: flag('isParceiro'),
    isFuncionario: flag('isFuncionario'),
  },
  faturas: {
    idFatura: equal('idFatura'),
    idCliente: equal('idCliente'),
    numero: equal('numero'),
    idIntegracao: equal('idIntegracao'),
    numeroPedido: equal('numeroPedido'),
    competencia: equal('competencia'),
    loteCheckout: hidden('_loteCheckout'),
    codigoCheckout: equal('codigoCheckout'),
    cpfCnpj: ofCustomer('cpfCnpj'),
    email: ofCustomer('email'),
    dataHoraAtualizacaoInicial: timeRange('_dataHoraAtualizacao', 'Inicial'),
    dataHoraAtualizacaoFinal: timeRange('_dataHoraAtualizacao', 'Final'),
  },
  nfse: {
    competencia: equal('competencia'),
    idNotaFiscalServico: equal('idNotaFiscalServico'),
    numeroNotaFiscalServico: {
      pick: (rs) => {
        const record = rs.find((r) => r.numeroNotaFiscalServico);
        return record && { record, value: record.numeroNotaFiscalServico };
      },
      holds: (r, v) => Number(r.numeroNotaFiscalServico) === Number(v),
    },
    idFatura: equal('idFatura'),
    numeroFatura: equal('numeroFatura'),
    idCliente: equal('idCliente'),
    cpfCnpj: equal('cpfCnpj'),
    email: ofCustomer('email'),
  },
  cobrancas: {
    idsCliente: ids('idCliente'),
    idsCobranca: ids('idCobranca'),
    cpfCnpj: equal('cpfCnpj'),
    email: ofCustomer('email'),
    vencimentoInicial: dayRange('dataVencimento', 'Inicial'),
    vencimentoFinal: dayRange('dataVencimento', 'Final'),
    dataPagamentoInicial: dayRange('dataPagamento', 'Inicial'),
    dataPagamentoFinal: dayRange('dataPagamento', 'Final'),
    isQuitado: flag('isQuitado'),
    isExibeCanceladas: {
      pick: (rs) => {
        const record = rs.find((r) => r.situacao !== 'CANCELADA');
        return record && { record, value: false };
      },
      holds: (r) => r.situacao !== 'CANCELADA',
    },
    isOcultarBaixaPerda: {
      pick: (rs) => {
        const record = rs.find((r) => !r._baixaPerda);
        return record && { record, value: true };
      },
      holds: (r) => !r._baixaPerda,
    },
    codigoCheckout: equal('codigoCheckout'),
    numeroTitulo: equal('numeroTitulo'),
    numeroParcela: equal('numeroParcela'),
    dataHoraAtualizacaoInicial: timeRange('dataHoraAtualizacao', 'Inicial'),
    dataHoraAtualizacaoFinal: timeRange('dataHoraAtualizacao', 'Final'),
  },
  transacoes: {
    idTransacao: equal('idTransacao'),
    cpfCnpj: ofCustomer('cpfCnpj'),
    competencia: equal('competencia'),
    dataVencimentoInicial: dayRange('dataVencimento', 'Inicial'),
    dataVencimentoFinal: dayRange('dataVencimento', 'Final'),
    dataPagamentoInicial: dayRange('dataPagamento', 'Inicial'),
    dataPagamentoFinal: dayRange('dataPagamento', 'Final'),
    dataHoraAtualizacaoInicial: timeRange('dataHoraAtualizacao', 'Inicial'),
    dataHoraAtualizacaoFinal: timeRange('dataHoraAtualizacao', 'Final'),
  },
  assinaturas: {
    idAssinaturaContrato: equal('idAssinaturaContrato'),
    idIntegracao: equal('idIntegracao'),
    idCliente: equal('idCliente'),
    cpfCnpj: ofCustomer('cpfCnpj'),
    email: ofCustomer('email'),
    vigencia: {
      pick: (rs) => {
        const record = rs.find((r) => r.statusAssinaturaContrato === 'ATIVO');
        return record && { record, value: isoToBr(record.dataAdesao) };
      },
    },
    competenciaReferencia: {
      pick: (rs) => {
        const record = rs.find((r) => r.competenciaFinal === null);
        return record && { record, value: record.competenciaInicial };
      },
    },
    isAtivo: {
      pick: (rs) => {
        const record = rs.find((r) => r.statusAssinaturaContrato !== 'ATIVO');
        return record && { record, value: false };
      },
      holds: (r) => r.statusAssinaturaContrato !== 'ATIVO',
    },
  },
};

const cases = (Object.values(listings) as ListOperation[]).flatMap((op) =>
  op.filters.filter((f) => !f.option && f.kind !== 'sortField' && f.kind !== 'sortOrder').map((f) => [op.key, f.name] as const),
);

describe('every filter of the table agrees with the sandbox', () => {
  it('has a probe for each filter the table lists', () => {
    const missing = cases.filter(([key, name]) => !PROBES[key][name]);
    expect(missing).toEqual([]);
  });

  it.each(cases)('%s: %s finds its record and narrows the listing', (key, name) => {
    const probe = PROBES[key][name];
    const picked = probe.pick(data[key]);
    expect(picked, 'no record to probe with').toBeDefined();
    const { record, value } = picked!;
    const result = client().listAll(key, { ...BASE[key], [name]: value as never });
    const idField = ID[key];
    expect(result.records.map((r) => r[idField])).toContain(record[idField]);
    expect(result.records.length).toBeLessThan(data[key].length);
    if (probe.holds) {
      const byId = new Map(data[key].map((r) => [r[idField], r]));
      const wrong = result.records.filter((r) => !probe.holds!(byId.get(r[idField])!, value));
      expect(wrong.map((r) => r[idField])).toEqual([]);
    }
  });

  it.each((Object.values(listings) as ListOperation[]).filter((op) => op.filters.some((f) => f.kind === 'sortField')).map((op) => op.key))(
    '%s: every offered sort field is accepted and orders the records',
    (listingKey) => {
      const key = listingKey;
      const op = listings[listingKey] as ListOperation;
      const sortField = op.filters.find((f) => f.kind === 'sortField')!;
      for (const field of sortField.choices ?? []) {
        const result = client().listAll(key, { ...BASE[key], sortField: field, sortOrder: 'desc' });
        // A competência MM/YYYY sorts by time, not as text.
        const order = (v: unknown) => (field === 'competencia' ? `${String(v).slice(3)}-${String(v).slice(0, 2)}` : v) as string | number;
        const values = result.records.map((r) => r[field]).filter((v) => v !== null && v !== undefined);
        if (values.length === 0) continue;
        const sorted = [...values].sort((a, b) => (order(a) < order(b) ? 1 : order(a) > order(b) ? -1 : 0));
        expect(values, `${key} by ${field}`).toEqual(sorted);
      }
    },
  );
});
