/**
 * The server as a sidebar sees it: `server.listReports()` is
 * google.script.run.listReports() as a promise, typed by the sidebar contract,
 * so a misspelt name or a wrong argument fails the sidebar's type-check. The
 * contract is imported for its types only: no server code reaches the page.
 */
import type * as contract from '../../gas/sidebar-contract';

export type { FieldRefusal, FormOutcome, Outcome, Refusal } from '../../gas/sidebar-contract';

type Contract = typeof contract;
export type ServerFunction = keyof Contract;
export type Args<K extends ServerFunction> = Parameters<Contract[K]>;
export type Reply<K extends ServerFunction> = ReturnType<Contract[K]>;
export type Server = { readonly [K in ServerFunction]: (...args: Args<K>) => Promise<Reply<K>> };

interface ScriptRun {
  withSuccessHandler(fn: (value: unknown) => void): ScriptRun;
  withFailureHandler(fn: (error: Error) => void): ScriptRun;
  [name: string]: unknown;
}
declare const google: { script: { run: ScriptRun } };

function call(name: string, args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const runner = google.script.run.withSuccessHandler(resolve).withFailureHandler(reject);
    const fn = runner[name];
    if (typeof fn !== 'function') {
      reject(new Error(`Função ${name} indisponível`));
      return;
    }
    (fn as (...a: unknown[]) => void).apply(runner, args);
  });
}

/**
 * A proxy rather than a table of names, so the page carries no second list to
 * keep in step with the contract: the contract's type is the list.
 */
export const server = new Proxy({} as Server, {
  // Answering `then` would make `server` itself look like a promise to `await`.
  get: (_target, name) => (typeof name === 'string' && name !== 'then' ? (...args: unknown[]) => call(name, args) : undefined),
});
