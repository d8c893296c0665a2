/**
 * google.script.run and google.script.host inside the playground's sidebar and
 * dialog iframes: calls go to the bundle running in Node (POST /rpc), with the
 * Apps Script client's behaviour: asynchronous, handlers and user object
 * carried by copies of the runner, at most 10 calls in flight (the 11th waits),
 * and a failure handler that receives an Error with the server's message.
 */
import { SPECIAL, type RpcReply } from '../view';

interface PlaygroundConfig {
  surface: number;
  functions: string[];
}

type Handler = (value: unknown, userObject?: unknown) => void;

/** The iframe's window: the server puts the config there, the bridge puts google.script. */
type BridgeWindow = Window & { __playground: PlaygroundConfig; google: { script: { run: Runner; host: Host } } };
const win = window as unknown as BridgeWindow;

interface Host {
  close(): void;
  setHeight(height: number): void;
  setWidth(width: number): void;
  origin: string;
  editor: { focus(): void };
}

interface Runner {
  withSuccessHandler(fn: Handler): Runner;
  withFailureHandler(fn: Handler): Runner;
  withUserObject(obj: unknown): Runner;
  [name: string]: unknown;
}

const MAX_IN_FLIGHT = 10;
const config = win.__playground;
let inFlight = 0;
const waiting: Array<() => void> = [];

/** Tells the page to redraw from the emulator's state. */
function notifyPage(version: number): void {
  window.parent.postMessage({ playground: 'changed', version }, '*');
}

function formValues(form: HTMLFormElement): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const el of Array.from(form.elements) as HTMLInputElement[]) {
    if (!el.name || el.disabled) continue;
    if ((el.type === 'checkbox' || el.type === 'radio') && !el.checked) continue;
    out[el.name] = el.value;
  }
  return out;
}

/** JSON, except for what JSON would silently change: a Date (refused by the server as Apps Script refuses it), a Map... */
function encode(value: unknown, top = false): unknown {
  if (value instanceof Date) return { [SPECIAL]: 'Date', ms: value.getTime() };
  if (top && value instanceof HTMLFormElement) return formValues(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'function' || v === undefined ? null : encode(v)));
  if (value === null || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return { [SPECIAL]: Object.prototype.toString.call(value).slice(8, -1) };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function') continue;
    out[k] = encode(v);
  }
  return out;
}

function acquire(): Promise<void> {
  if (inFlight < MAX_IN_FLIGHT) {
    inFlight++;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else inFlight--;
}

async function send(functionName: string, args: unknown[]): Promise<RpcReply> {
  await acquire();
  try {
    const res = await fetch('/rpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ functionName, args: args.map((a) => encode(a, true)) }),
    });
    if (!res.ok) return { ok: false, error: { name: 'NetworkError', message: `O playground respondeu HTTP ${res.status}` }, version: -1 };
    return (await res.json()) as RpcReply;
  } catch (err) {
    return { ok: false, error: { name: 'NetworkError', message: `Sem resposta do playground: ${(err as Error).message}` }, version: -1 };
  } finally {
    release();
  }
}

function runner(success: Handler | null, failure: Handler | null, userObject: unknown): Runner {
  const r: Runner = {
    withSuccessHandler: (fn) => runner(fn, failure, userObject),
    withFailureHandler: (fn) => runner(success, fn, userObject),
    withUserObject: (obj) => runner(success, failure, obj),
  };
  for (const name of config.functions) {
    if (name in r) continue;
    r[name] = (...args: unknown[]) => {
      void send(name, args).then((reply) => {
        if (reply.ok) {
          success?.(reply.value, userObject);
        } else {
          const error = new Error(reply.error.message);
          error.name = reply.error.name;
          if (failure) failure(error, userObject);
          else console.error(`google.script.run.${name}: ${reply.error.message}`);
        }
        if (reply.version >= 0) notifyPage(reply.version);
      });
    };
  }
  return r;
}

const host: Host = {
  close() {
    void fetch(`/surface/${config.surface}/close`, { method: 'POST' }).then(async (res) => {
      const body = (await res.json()) as { version: number };
      notifyPage(body.version);
    });
  },
  setHeight() {},
  setWidth() {},
  origin: location.origin,
  editor: { focus() {} },
};

win.google = { script: { run: runner(null, null, undefined), host } };
