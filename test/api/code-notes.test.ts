/** A code column's header note explains the codes the service's data holds, not only those the specification observed. */
import { describe, expect, it } from 'vitest';
import { borrowSandbox } from '../../dev/sandbox/harness';
import { type ListOperation, listings } from '../../src/api/operations';
import { headerNote } from '../../src/core/sheets/sheet-layout';
import { tableSpec } from '../../src/core/sheets/table';

describe('a code column explains the codes the data holds', () => {
  it("Método de pagamento covers every method the service's charges carry (BOLETO, PIX, CARTAO_CREDITO)", async () => {
    const sb = await borrowSandbox({ seed: 5, size: 'small' });
    try {
      const methods = new Set((await sb.dump<{ metodoPagamento: string }>(sb.orgs[0].name, 'cobrancas')).map((c) => c.metodoPagamento));
      expect([...methods].sort()).toEqual(['BOLETO', 'CARTAO_CREDITO', 'PIX']);
      const column = tableSpec(listings.cobrancas as ListOperation).columns.find((c) => c.key === 'metodoPagamento')!;
      for (const m of methods) expect(headerNote(column)).toMatch(new RegExp(`\\b${m} = \\S`));
    } finally {
      await sb.stop();
    }
  });
});
