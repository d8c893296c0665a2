/**
 * One place for an NFS-e's record, whether the data seeds it or the emission
 * route issues it: what a note copies from its invoice and client, and its ISS
 * worked out from the rate and the service value.
 */
import type { Cliente, FaturaRow, Nfse } from './records.js';

/** What differs from note to note; the rest follows from the invoice and client. */
export interface NfseIssue {
  idNotaFiscalServico: number;
  dataEmissao: string;
  horaEmissao: string;
  numeroRps: number;
  /** Null while the city hall has not authorised the note: it stays EMITIDA. */
  numeroNotaFiscalServico: string | null;
  /** 2 when the client withholds the ISS, 0 otherwise. */
  issRetido: number;
  aliquota: number;
  /** The invoice's total unless the note was issued for less. */
  valorServico?: number;
  /** A status the spec does not list (a cancelled note); otherwise AUTORIZADA with a number, EMITIDA without. */
  status?: string;
}

export function nfseFor(f: FaturaRow, c: Cliente, n: NfseIssue): Nfse {
  const valorServico = n.valorServico ?? f.valorTotal;
  const valorIss = Math.round(valorServico * n.aliquota) / 100;
  return {
    idNotaFiscalServico: n.idNotaFiscalServico,
    competencia: f.competencia,
    dataEmissao: n.dataEmissao,
    horaEmissao: n.horaEmissao,
    statusNotaFiscalServico: n.status ?? (n.numeroNotaFiscalServico === null ? 'EMITIDA' : 'AUTORIZADA'),
    numeroRps: n.numeroRps,
    numeroNotaFiscalServico: n.numeroNotaFiscalServico,
    idFatura: f.idFatura,
    numeroFatura: f.numero,
    idCliente: c.idCliente,
    cpfCnpj: c.cpfCnpj,
    nomeFantasia: c.nomeFantasia,
    razaoSocial: c.razaoSocial,
    issRetido: n.issRetido,
    aliquota: n.aliquota,
    valorServico,
    valorIss,
    valorLiquidoNfse: n.issRetido === 2 ? Math.round((valorServico - valorIss) * 100) / 100 : valorServico,
  };
}
