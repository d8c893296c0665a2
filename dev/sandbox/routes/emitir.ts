/** POST /v2/faturamento/nfse/emitir */
import { nowLocalDatetime } from '../dates.js';
import { errorReply, type Route } from '../envelopes.js';
import { nfseFor } from '../nfse.js';
import { isPlainObject } from '../validation.js';

export const emitirRoute: Route = {
  method: 'POST',
  pattern: /^\/v2\/faturamento\/nfse\/emitir$/,
  envelope: 'emission',
  hasBody: true,
  handle(ctx) {
    const body = ctx.body;
    const idFatura = isPlainObject(body) ? body.idFatura : undefined;
    if (typeof idFatura !== 'number' || !Number.isInteger(idFatura) || idFatura < 1) {
      return errorReply('emission', 400, ['idFatura: campo obrigatório, número inteiro']);
    }
    const org = ctx.org;
    if (!org.def.hasCityHallIntegration) {
      return errorReply('emission', 400, ['Integração com a prefeitura não configurada para a organização']);
    }
    // Another organization's invoice gets the same answer as a missing one: no leak of what exists.
    const fatura = org.faturaById.get(idFatura);
    if (!fatura) return errorReply('emission', 400, [`Fatura ${idFatura} não encontrada`]);
    const existing = org.nfseByFatura.get(idFatura);
    if (existing) {
      return errorReply('emission', 400, [`Fatura ${idFatura} já possui NFS-e (idNotaFiscalServico ${existing.idNotaFiscalServico})`]);
    }
    if (fatura.statusFatura === 'CANCELADA') return errorReply('emission', 400, [`Fatura ${idFatura} está cancelada`]);
    const cliente = org.clienteById.get(fatura.idCliente)!;
    // Some city halls authorise at once, others leave the note EMITIDA, without a number, for later.
    const autorizada = org.rng.chance(0.5);
    const now = nowLocalDatetime();
    const note = nfseFor(fatura, cliente, {
      idNotaFiscalServico: org.next.idNfse++,
      dataEmissao: now.slice(0, 10),
      horaEmissao: now.slice(11, 16),
      numeroRps: org.next.numeroRps++,
      numeroNotaFiscalServico: autorizada ? String(org.next.numeroNfse++).padStart(org.nfseNumberWidth, '0') : null,
      issRetido: 0,
      aliquota: 2,
    });
    org.nfse.push(note);
    org.nfseByFatura.set(fatura.idFatura, note);
    const message = [`NFS-e ${note.idNotaFiscalServico} gerada com sucesso para a fatura ${fatura.idFatura}`];
    const body2 =
      ctx.config.emissionShape === 'array'
        ? { status: '200', message, data: [{ ...note }], paging: { totalRows: 1, totalPages: 1 } }
        : { status: '200', message, data: { ...note } };
    return { status: 200, body: body2 };
  },
};
