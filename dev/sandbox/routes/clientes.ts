/** GET /v2/clientes */
import type { Route } from '../envelopes.js';
import { badQuery, pagedList } from '../listing.js';
import { QueryReader } from '../query.js';
import type { Cliente } from '../records.js';

export const clientesRoute: Route = {
  method: 'GET',
  pattern: /^\/v2\/clientes$/,
  envelope: 'list',
  hasBody: false,
  handle(ctx) {
    const q = new QueryReader(ctx.query);
    const f = {
      idCliente: q.int('idCliente'),
      idIntegracao: q.str('idIntegracao'),
      cpfCnpj: q.cpfCnpj('cpfCnpj'),
      email: q.str('email')?.toLowerCase(),
      isAtivo: q.bool('isAtivo'),
      isCliente: q.bool('isCliente'),
      isFornecedor: q.bool('isFornecedor'),
      isParceiro: q.bool('isParceiro'),
      isFuncionario: q.bool('isFuncionario'),
    };
    const listarTelefones = q.bool('isListarTelefones') === true;
    const listarTags = q.bool('isListarTags') === true;
    const page = q.page('page', ctx.config.pageBase);
    const bad = badQuery('list', q);
    if (bad) return bad;
    const rows = ctx.org.clientes.filter(
      (c) =>
        (f.idCliente === undefined || c.idCliente === f.idCliente) &&
        (f.idIntegracao === undefined || c.idIntegracao === f.idIntegracao) &&
        (f.cpfCnpj === undefined || c.cpfCnpj === f.cpfCnpj) &&
        (f.email === undefined || c.email.toLowerCase() === f.email) &&
        (f.isAtivo === undefined || c.isAtivo === f.isAtivo) &&
        (f.isCliente === undefined || c.isCliente === f.isCliente) &&
        (f.isFornecedor === undefined || c.isFornecedor === f.isFornecedor) &&
        (f.isParceiro === undefined || c.isParceiro === f.isParceiro) &&
        (f.isFuncionario === undefined || c.isFuncionario === f.isFuncionario),
    );
    // Not asked for: null (the field is "array or null"), not an empty array.
    const present = (c: Cliente): Cliente => ({
      ...c,
      cartaoCredito: { ...c.cartaoCredito },
      telefones: listarTelefones ? c.telefones : null,
      tags: listarTags ? c.tags : null,
    });
    return pagedList(ctx, { listing: 'clientes', rows, page, present });
  },
};
