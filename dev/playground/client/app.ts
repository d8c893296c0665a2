/**
 * The playground page: draws the emulator's state and sends what the user
 * does. Redraws after every action and whenever a sidebar's google.script.run
 * call reports that the state moved on.
 */
import type { PlaygroundView } from '../view';
import { getView, post, type ActionReply } from './api';
import { renderEmbedded } from './charts';
import { initGrid, renderGrid, rowWindow } from './grid';
import { initMenus, renderMenus } from './menus';
import { initPanels, renderPanels, setPlaygroundResult, showToast } from './panels';
import { initStructureBar } from './structure';

let rendered = 0;
let refreshing: Promise<void> | null = null;
let again = false;

function render(view: PlaygroundView): void {
  renderMenus(view.menus);
  renderGrid(view);
  renderEmbedded(view.embedded);
  renderPanels(view);
  rendered = view.version;
  document.body.dataset.version = String(view.version);
}

/** Fetches the state and redraws; calls that arrive meanwhile cause one more round. */
function refresh(): Promise<void> {
  if (refreshing !== null) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    try {
      do {
        again = false;
        render(await getView(rowWindow()));
      } while (again);
    } catch (err) {
      showToast({ title: 'Playground', message: `Não foi possível atualizar a página: ${(err as Error).message}`, timeoutSeconds: 8 }, 'error');
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

let inFlight = 0;

/** The page says when none of its actions is still running, so a test (or a tool) can wait for what a click did. */
function markInFlight(delta: number): void {
  inFlight += delta;
  if (inFlight > 0) document.body.dataset.acting = String(inFlight);
  else delete document.body.dataset.acting;
}

async function act(path: string, body: unknown): Promise<ActionReply> {
  markInFlight(1);
  try {
    const reply = await post(path, body);
    await refresh();
    return reply;
  } finally {
    markInFlight(-1);
  }
}

initMenus((functionName) => {
  void act('/menu', { functionName }).then((r) => {
    if (!r.ok) showToast({ title: 'Erro', message: r.error?.message ?? 'Erro desconhecido', timeoutSeconds: 10 }, 'error');
  });
});
initGrid(
  (sheet, ranges) => act('/select', { sheet, ranges }),
  (edit) =>
    void act('/edit', edit).then((r) => {
      if (!r.ok) showToast({ title: 'Erro', message: r.error?.message ?? 'Erro desconhecido', timeoutSeconds: 10 }, 'error');
    }),
  () => void refresh(),
);
initStructureBar(
  (body) => act('/structure', body),
  (message) => showToast({ title: 'Erro', message, timeoutSeconds: 10 }, 'error'),
);
initPanels({
  activate: (sheetId) => void act('/activate', { sheetId }),
  closeSurface: (id) => void act(`/surface/${id}/close`, {}),
  switchUser: (user) => {
    void act('/user', { user }).then((r) => setPlaygroundResult(r.ok ? (r.message ?? '') : `Erro: ${r.error?.message}`));
  },
  advance: (minutes) => {
    const buttons = document.querySelectorAll<HTMLButtonElement>('#playground-bar button');
    buttons.forEach((b) => (b.disabled = true));
    setPlaygroundResult('Executando gatilhos…');
    void act('/triggers/advance', { minutes }).then((r) => {
      buttons.forEach((b) => (b.disabled = false));
      setPlaygroundResult(r.ok ? (r.message ?? '') : `Erro: ${r.error?.message}`);
    });
  },
});

window.addEventListener('message', (ev) => {
  const data = ev.data as { playground?: string; version?: number } | null;
  if (data?.playground === 'changed' && (data.version ?? Infinity) > rendered) void refresh();
});

/** Changes made to the emulator from outside the page (a test, a trigger run elsewhere) show up within a second. */
async function poll(): Promise<void> {
  try {
    const res = await fetch('/version', { cache: 'no-store' });
    const { version } = (await res.json()) as { version: number };
    if (version > rendered) await refresh();
  } catch {
    // The server may be busy running the bundle or stopped: try again later.
  }
  setTimeout(() => void poll(), POLL_MS);
}

const POLL_MS = 1000;
void refresh().then(() => setTimeout(() => void poll(), POLL_MS));
