/**
 * Customers named by CPF/CNPJ, against a scripted service: what each answer
 * makes of the row (found, not found, several, inactive, unreadable, lost),
 * one wave per call, and a refused key stopping the run.
 */
import { describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../../../src/api/errors';
import { formatCpfCnpj } from '../../../src/api/filters';
import { type CustomerFound, findCustomers } from '../../../src/core/bulk/customers';
import { json, listOf, scripted } from './scripted';

const CNPJ = '12345678000190';
const CPF = '12345678909';
const cliente = (idCliente: number, cpfCnpj: string, isAtivo = true) => ({ idCliente, cpfCnpj, isAtivo });

function lookUp(answers: Record<string, ReturnType<typeof json>>, values: string[], known = new Map<string, CustomerFound>()) {
  const service = scripted((_req, url) => answers[url.searchParams.get('cpfCnpj') ?? ''] ?? listOf([]));
  findCustomers(service.client, values, known);
  return { known, ...service };
}

const message = (found: CustomerFound | undefined) => (found && !found.ok ? found.message : `found ${JSON.stringify(found)}`);

describe('findCustomers', () => {
  it('the one active customer with exactly that CPF/CNPJ, however the service formats it', () => {
    const { known, log } = lookUp({ [CNPJ]: listOf([cliente(9, '12.345.678/0001-90'), cliente(10, '12.345.678/0001-91')]) }, [CNPJ, CNPJ]);
    expect(known.get(CNPJ)).toEqual({ ok: true, id: 9 });
    expect(log).toHaveLength(1);
    expect(log[0]).toContain(`cpfCnpj=${CNPJ}`);
    const two = lookUp({ [CNPJ]: listOf([cliente(9, CNPJ)]), [CPF]: listOf([cliente(8, CPF)]) }, [CPF, CNPJ, CPF]);
    expect(two.waves).toEqual([2]);
    expect(two.known).toEqual(
      new Map([
        [CPF, { ok: true, id: 8 }],
        [CNPJ, { ok: true, id: 9 }],
      ]),
    );
  });

  it('values already known are not looked up again; nothing new sends nothing', () => {
    const known = new Map<string, CustomerFound>([[CPF, { ok: true, id: 1 }]]);
    expect(lookUp({}, [CPF], known).log).toEqual([]);
    expect(lookUp({}, [], known).log).toEqual([]);
    expect(lookUp({}, [CPF, CNPJ], known).log).toEqual([`GET /v2/clientes?cpfCnpj=${CNPJ}`]);
  });

  it('nobody with that number: check it or use the customer id', () => {
    const { known } = lookUp({ [CPF]: listOf([cliente(3, '98765432100')]) }, [CPF]);
    expect(message(known.get(CPF))).toBe('nenhum cliente tem o CPF/CNPJ 123.456.789-09: confira o número ou use a coluna "ID do cliente"');
  });

  it('several with that number: the first five ids, and which column to fill', () => {
    const many = [1, 2, 3, 4, 5, 6].map((id) => cliente(id, CNPJ));
    expect(message(lookUp({ [CNPJ]: listOf(many) }, [CNPJ]).known.get(CNPJ))).toBe(
      '6 clientes têm o CPF/CNPJ 12.345.678/0001-90 (IDs 1, 2, 3, 4, 5…): escreva na coluna "ID do cliente" qual deles',
    );
    expect(message(lookUp({ [CNPJ]: listOf(many.slice(0, 5)) }, [CNPJ]).known.get(CNPJ))).toBe(
      '5 clientes têm o CPF/CNPJ 12.345.678/0001-90 (IDs 1, 2, 3, 4, 5): escreva na coluna "ID do cliente" qual deles',
    );
  });

  it('an inactive customer is not used', () => {
    const { known } = lookUp({ [CPF]: listOf([cliente(4, CPF, false)]) }, [CPF]);
    expect(message(known.get(CPF))).toBe('o cliente de CPF/CNPJ 123.456.789-09 (ID 4) está inativo: reative-o no serviço ou escolha outro cliente');
  });

  it('a lost lookup is the row failing this time, to be tried again', () => {
    const service = scripted(() => ({ kind: 'network-error', message: 'connection reset' }));
    const known = new Map<string, CustomerFound>();
    findCustomers(service.client, [CPF], known);
    expect(message(known.get(CPF))).toMatch(/^não foi possível procurar o cliente de CPF\/CNPJ 123\.456\.789-09 \(.*connection reset.*\); execute de novo$/);
  });

  it("the service's long error text is cut", () => {
    const { known } = lookUp({ [CPF]: json(500, { message: 'z'.repeat(5_000) }) }, [CPF]);
    const text = message(known.get(CPF));
    expect(text.length).toBeLessThan(300);
    expect(text.endsWith('); execute de novo')).toBe(true);
  });

  it('a listing without the list envelope is out of the documented shape', () => {
    const { known } = lookUp({ [CPF]: json(200, [cliente(3, CPF)]) }, [CPF]);
    expect(message(known.get(CPF))).toMatch(
      /^não foi possível ler os clientes de CPF\/CNPJ 123\.456\.789-09: Resposta fora do formato documentado em GET \/v2\/clientes: .*\(GET \/v2\/clientes\)$/,
    );
  });

  it('a customer listed without a CPF/CNPJ is nobody’s match', () => {
    const { known } = lookUp({ [CPF]: listOf([{ idCliente: 3, isAtivo: true }]) }, [CPF]);
    expect(message(known.get(CPF))).toContain('nenhum cliente tem o CPF/CNPJ');
  });

  it('an answer out of the documented shape says so, bounded', () => {
    const { known } = lookUp({ [CPF]: json(200, { data: 'x'.repeat(10_000) }) }, [CPF]);
    const text = message(known.get(CPF));
    expect(text).toMatch(/^não foi possível ler os clientes de CPF\/CNPJ 123\.456\.789-09: .*GET \/v2\/clientes/);
    expect(text.length).toBeLessThanOrEqual(500);
  });

  it('a refused key stops the run', () => {
    expect(() => lookUp({ [CPF]: json(401, { message: 'chave inválida' }) }, [CPF])).toThrow(UnauthorizedError);
  });
});

describe('formatCpfCnpj', () => {
  it('as people read them; anything else as it is', () => {
    expect(formatCpfCnpj(CNPJ)).toBe('12.345.678/0001-90');
    expect(formatCpfCnpj(CPF)).toBe('123.456.789-09');
    expect(formatCpfCnpj('123')).toBe('123');
  });
});
