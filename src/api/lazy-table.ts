/**
 * A table of the interface built on first use of any entry: every execution
 * evaluates the whole bundle (cold start), and most use one entry or none.
 * Each key is an enumerable getter in `order`, so listing the keys builds
 * nothing and Object.values keeps the table's order. No prototype: a key that
 * comes from a sidebar ("toString", "constructor") finds nothing rather than
 * one of Object's methods.
 */
export function lazyTable<K extends string, T extends Record<K, unknown>>(order: readonly K[], build: () => T): T {
  let built: T | undefined;
  const all = (): T => {
    if (built) return built;
    const table = build();
    if (Object.keys(table).join() !== order.join()) throw new Error(`lazyTable: keys ${Object.keys(table).join()} differ from ${order.join()}`);
    built = table;
    return table;
  };
  return Object.defineProperties(Object.create(null), Object.fromEntries(order.map((key) => [key, { enumerable: true, get: () => all()[key] }]))) as T;
}
