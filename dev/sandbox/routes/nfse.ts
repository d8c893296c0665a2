/** GET /v2/nfse */
import { competenciaKey } from '../dates.js';
import type { Route } from '../envelopes.js';
import { applySort, badQuery, customerIdsMatching, pagedList, readSort, type SortKey } from '../listing.js';
import { QueryReader } from '../query.js';
import type { Nfse } from '../records.js';

const SORT_FIELDS: Record<string, SortKey<Nfse>> = {
  idNotaFiscalServico: (r) => r.idNotaFiscalServico,
  numeroRps: (r) => r.numeroRps,
  numeroNotaFiscalServico: (r) => (r.numeroNotaFiscalServico === null ? null : Number(r.numeroNotaFiscalServico)),
  competencia: (r) => competenciaKey(r.competencia),
  dataEmissao: (r) => r.dataEmissao + 'T' + r.horaEmissao,
  idFatura: (r) => r.idFatura,
  numeroFatura: (r) => r.numeroFatura,
};

export const nfseRoute: Route = {
  method: 'GET',
  pattern: /^\/v2\/nfse$/,
  envelope: 'list',
  hasBody: false,
  handle(ctx) {
    const q = new QueryReader(ctx.query);
    const f = {
      competencia: q.competencia('competencia'),
      idNotaFiscalServico: q.int('idNotaFiscalServico'),
      // An integer: matches the zero-padded text by value; notes without a number never match.
      numeroNotaFiscalServico: q.int('numeroNotaFiscalServico'),
      idFatura: q.int('idFatura'),
      numeroFatura: q.int('numeroFatura'),
      idCliente: q.int('idCliente'),
      cpfCnpj: q.cpfCnpj('cpfCnpj'),
      email: q.str('email'),
    };
    const sort = readSort(q, ctx.query, SORT_FIELDS);
    const page = q.page('page', ctx.config.pageBase);
    const bad = badQuery('list', q);
    if (bad) return bad;
    const emailIds = customerIdsMatching(ctx.org.clientes, undefined, f.email);
    const rows = ctx.org.nfse.filter(
      (r) =>
        (f.competencia === undefined || r.competencia === f.competencia) &&
        (f.idNotaFiscalServico === undefined || r.idNotaFiscalServico === f.idNotaFiscalServico) &&
        (f.numeroNotaFiscalServico === undefined || (r.numeroNotaFiscalServico !== null && Number(r.numeroNotaFiscalServico) === f.numeroNotaFiscalServico)) &&
        (f.idFatura === undefined || r.idFatura === f.idFatura) &&
        (f.numeroFatura === undefined || r.numeroFatura === f.numeroFatura) &&
        (f.idCliente === undefined || r.idCliente === f.idCliente) &&
        (f.cpfCnpj === undefined || r.cpfCnpj === f.cpfCnpj) &&
        (emailIds === null || emailIds.has(r.idCliente)),
    );
    return pagedList(ctx, { listing: 'nfse', rows: applySort(rows, sort), page, present: (r) => ({ ...r }) });
  },
};
