/** Calls from the page to the playground server; every action is followed by a redraw. */
import type { PlaygroundView } from '../view';

export interface ActionReply {
  ok: boolean;
  version: number;
  message?: string;
  error?: { name: string; message: string };
}

/** The state, with the active tab's rows in `rows` (the ones the grid shows). */
export async function getView(rows: { from: number; count: number }): Promise<PlaygroundView> {
  const res = await fetch(`/state?from=${rows.from}&count=${rows.count}`, { cache: 'no-store' });
  if (!res.ok) throw new Error(`/state: HTTP ${res.status}`);
  return (await res.json()) as PlaygroundView;
}

export async function post(path: string, body: unknown = {}): Promise<ActionReply> {
  try {
    const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const reply = (await res.json()) as ActionReply;
    return res.ok ? reply : { ok: false, version: reply.version ?? -1, error: reply.error ?? { name: 'Error', message: `HTTP ${res.status}` } };
  } catch (err) {
    return { ok: false, version: -1, error: { name: 'NetworkError', message: `Sem resposta do playground: ${(err as Error).message}` } };
  }
}
