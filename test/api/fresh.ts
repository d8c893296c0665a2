/**
 * The interface modules loaded anew for one test. Their tables are built on
 * first use and kept for the life of the module, as in one execution of the
 * add-on: a test that reads a freshly built table judges how it is built, not
 * a table some earlier test of the file built.
 */
import { vi } from 'vitest';

export async function fresh() {
  vi.resetModules();
  const operations = await import('../../src/api/operations');
  const writes = await import('../../src/api/writes');
  const table = await import('../../src/core/sheets/table');
  const client = await import('../../src/api/client');
  const errors = await import('../../src/api/errors');
  return { ...operations, ...writes, ...table, ...client, ...errors };
}
