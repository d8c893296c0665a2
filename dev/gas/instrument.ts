/**
 * Scripts never see the emulator's objects directly: they get a Proxy whose
 * method calls pass through Execution.enter first. Keeping this in one place
 * means every service gets the kill, the auth checks, the costs and the counters
 * without each method remembering to.
 */
import type { Execution } from './execution';

/** Base of every emulated Apps Script object; `gasName` is the class name Apps Script uses in errors. */
export abstract class GasObject {
  abstract readonly gasName: string;
  /** HtmlTemplate takes arbitrary fields from scripts; every other object is sealed. */
  readonly gasOpenFields: boolean = false;
  toString(): string {
    return this.gasName;
  }
}

const proxies = new WeakMap<Execution, WeakMap<object, object>>();
const targets = new WeakMap<object, object>();

export function unwrap<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    const target = targets.get(value as object);
    if (target) return target as T;
    if (Array.isArray(value) && value.length > 0 && value.some((v) => v !== null && typeof v === 'object')) {
      return value.map((v) => unwrap(v)) as T;
    }
  }
  return value;
}

export function expose<T>(exec: Execution, value: T): T {
  if (value instanceof GasObject) return proxyFor(exec, value) as T;
  if (Array.isArray(value) && value.some((v) => v instanceof GasObject)) {
    return exec.realm.array(value.map((v) => expose(exec, v))) as T;
  }
  return value;
}

function proxyFor(exec: Execution, target: GasObject): object {
  let perExec = proxies.get(exec);
  if (!perExec) proxies.set(exec, (perExec = new WeakMap()));
  const existing = perExec.get(target);
  if (existing) return existing;
  const proxy = new Proxy(target, {
    get(t, prop, receiver) {
      if (typeof prop === 'string' && prop.startsWith('_')) return undefined;
      const value = Reflect.get(t, prop, receiver === proxy ? t : receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || prop === 'toString' || prop === 'constructor') {
        return expose(exec, value);
      }
      return function (this: unknown, ...args: unknown[]) {
        exec.enter(t.gasName, prop, t, args);
        const result = (value as (...a: unknown[]) => unknown).apply(
          t,
          args.map((a) => unwrap(a)),
        );
        if (result === t) return proxy;
        // The one grid of objects Apps Script returns; scanning every getValues() grid would be wasteful.
        if (prop === 'getDataValidations' && Array.isArray(result)) {
          return exec.realm.array(result.map((row: unknown[]) => exec.realm.array(row.map((v) => expose(exec, v)))));
        }
        return expose(exec, result);
      };
    },
    set(t, prop, value) {
      return t.gasOpenFields ? Reflect.set(t, prop, value) : false;
    },
  });
  perExec.set(target, proxy);
  targets.set(proxy, target);
  return proxy;
}
