/**
 * Customers named by CPF/CNPJ instead of their id: looked up through the
 * customers listing, each distinct value once per run (a job keeps what it
 * found between steps), all of them in one concurrent wave. Only one active customer with exactly that CPF/CNPJ
 * will do: none, several or an inactive one leaves the row unsent, with a
 * message saying what to do.
 */
import type { BillingClient } from '../../api/client';
import { SchemaError, UnauthorizedError } from '../../api/errors';
import { bounded, MESSAGE_MAX } from '../bounds';
import { plural } from '../../api/words';
import { checkDigitsMatch, formatCpfCnpj } from '../../api/filters';

export type CustomerFound = { ok: true; id: number } | { ok: false; message: string };

/** Looks up the values not yet in `known` and adds what each one found. */
export function findCustomers(client: BillingClient, values: Iterable<string>, known: Map<string, CustomerFound>): void {
  const wanted = [...new Set(values)].filter((v) => !known.has(v));
  if (wanted.length === 0) return;
  client
    .lookupEach(
      'clientes',
      wanted.map((cpfCnpj) => ({ cpfCnpj })),
    )
    .forEach((found, i) => {
      const value = wanted[i];
      const shown = formatCpfCnpj(value);
      if (!found.ok) {
        // A refused key stops the run (its message says what to do); anything else is this row's problem, tried again next run.
        if (found.error instanceof UnauthorizedError) throw found.error;
        known.set(
          value,
          found.error instanceof SchemaError
            ? { ok: false, message: bounded(`não foi possível ler os clientes de CPF/CNPJ ${shown}: ${found.error.message}`, MESSAGE_MAX) }
            : { ok: false, message: `não foi possível procurar o cliente de CPF/CNPJ ${shown} (${bounded(found.error.message, 200)}); execute de novo` },
        );
        return;
      }
      // Exact match only: a service that ignored the filter must not hand us someone else.
      const matches = found.records.filter((r) => String(r.cpfCnpj ?? '').replace(/\D/g, '') === value);
      if (matches.length === 0) {
        // A digit typed wrong is the likelier cause, and the number says so by itself.
        const message = checkDigitsMatch(value)
          ? `nenhum cliente tem o CPF/CNPJ ${shown}: confira o número ou use a coluna "ID do cliente"`
          : `o ${value.length === 11 ? 'CPF' : 'CNPJ'} ${shown} não é válido (os dígitos verificadores não conferem): confira cada dígito do número`;
        known.set(value, { ok: false, message });
      } else if (matches.length > 1) {
        const ids = matches.slice(0, 5).map((r) => r.idCliente);
        known.set(value, {
          ok: false,
          message: `${plural(matches.length, 'cliente tem', 'clientes têm')} o CPF/CNPJ ${shown} (IDs ${ids.join(', ')}${matches.length > 5 ? '…' : ''}): escreva na coluna "ID do cliente" qual deles`,
        });
      } else if (matches[0].isAtivo === false) {
        known.set(value, {
          ok: false,
          message: `o cliente de CPF/CNPJ ${shown} (ID ${matches[0].idCliente}) está inativo: reative-o no serviço ou escolha outro cliente`,
        });
      } else known.set(value, { ok: true, id: matches[0].idCliente as number });
    });
}
