/**
 * google.script.run's rules for what crosses between the sidebar and the
 * script: primitives, plain objects and arrays. A Date fails the call (the
 * real client gets an error for arguments and a silent null for return values;
 * the emulator refuses both loudly), undefined in arrays becomes null,
 * functions and undefined properties disappear.
 */
import { isDate, isPlainObject } from './realm';

export class ScriptRunSerializationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptRunSerializationError';
  }
}

/** Returns a host-realm copy that obeys the rules, or throws ScriptRunSerializationError. */
export function serializeForScriptRun(value: unknown, direction: 'argument' | 'return value', path = ''): unknown {
  const where = path || direction;
  if (value === undefined) return null;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'function' || typeof value === 'symbol') return null;
  if (typeof value === 'bigint') throw new ScriptRunSerializationError(`Failed due to illegal value in property: ${where} (bigint)`);
  if (isDate(value)) {
    throw new ScriptRunSerializationError(
      `Failed due to illegal value in property: ${where} (a Date cannot cross google.script.run; send an ISO string or epoch millis)`,
    );
  }
  if (Array.isArray(value)) {
    return Array.from(value, (v, i) => (typeof v === 'function' ? null : serializeForScriptRun(v, direction, `${path}[${i}]`)));
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      out[k] = serializeForScriptRun(v, direction, path ? `${path}.${k}` : k);
    }
    return out;
  }
  const kind = Object.prototype.toString.call(value).slice(8, -1);
  throw new ScriptRunSerializationError(`Failed due to illegal value in property: ${where} (${kind})`);
}
