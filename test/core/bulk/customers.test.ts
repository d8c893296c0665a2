/**
 * Finding customers by CPF/CNPJ against the sandbox over HTTP: one request per
 * distinct value not already known, all in one wave, and only a single active
 * customer with exactly that value will do. The sandbox never has two
 * customers with one CNPJ, so the ambiguous case duplicates the record the
 * sandbox really returned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../../dev/sandbox/harness';
import { type CustomerFound, findCustomers } from '../../../src/core/bulk/customers';
import { client, type Rec } from './fixtures';

let sb: SandboxHandle;
let clientes: Rec[];

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 5, size: 'small' });
  clientes = await sb.dump<Rec>(sb.orgs[0].name, 'clientes');
});
afterAll(async () => {
  await sb?.stop();
});

const digits = (c: Rec) => String(c.cpfCnpj).replace(/\D/g, '');

describe('customers by CPF/CNPJ', () => {
  it('looks each distinct value up once, in one wave, and skips those already known', async () => {
    const [a, b] = clientes.filter((c) => c.isAtivo);
    const c = client(sb);
    const waves: number[] = [];
    const sendAll = c.http.sendAll.bind(c.http);
    c.http.sendAll = (specs) => {
      waves.push(specs.length);
      return sendAll(specs);
    };
    const known = new Map<string, CustomerFound>();
    findCustomers(c, [digits(a), digits(b), digits(a)], known);
    expect(waves).toEqual([2]);
    expect(known.get(digits(a))).toEqual({ ok: true, id: a.idCliente });
    expect(known.get(digits(b))).toEqual({ ok: true, id: b.idCliente });
    findCustomers(c, [digits(a), digits(b)], known);
    expect(waves).toEqual([2]);
  });

  it('two customers with one CNPJ: neither is chosen, and the message lists both ids', () => {
    const a = clientes.find((c) => c.isAtivo && digits(c).length === 14)!;
    const c = client(sb);
    const sendAll = c.http.sendAll.bind(c.http);
    c.http.sendAll = (specs) =>
      sendAll(specs).map((settled) => {
        if (!settled.ok) return settled;
        const json = settled.json as { data: Rec[] };
        return { ...settled, json: { ...json, data: [...json.data, { ...json.data[0], idCliente: 999_999 }] } };
      });
    const known = new Map<string, CustomerFound>();
    findCustomers(c, [digits(a)], known);
    const found = known.get(digits(a));
    expect(found?.ok).toBe(false);
    expect(found && !found.ok && found.message).toMatch(
      new RegExp(`^2 clientes têm o CPF/CNPJ [\\d./-]+ \\(IDs ${a.idCliente}, 999999\\): escreva na coluna "ID do cliente" qual deles`),
    );
  });
});
