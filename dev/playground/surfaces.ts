/**
 * Which of the bundle's sidebars and dialogs are open. The emulator records
 * every showSidebar/showModalDialog call in ui.dialogs (append-only); the page
 * shows the latest sidebar (a new one replaces the current, as in Sheets) and
 * the latest dialog of each kind, until google.script.host.close() or the ×.
 */
import type { DialogRecord, UiState } from '../gas/ui';
import { SIDEBAR_WIDTH } from '../gas/ui';
import type { SurfaceView } from './view';

export class Surfaces {
  private seen = 0;
  private sidebarId: number | null = null;
  private readonly dialogIds = new Set<number>();

  constructor(private readonly ui: UiState) {}

  /** Picks up what the bundle showed since the last sync. */
  sync(): void {
    const all = this.ui.dialogs;
    for (; this.seen < all.length; this.seen++) {
      const d = all[this.seen];
      if (d.kind === 'sidebar') {
        this.sidebarId = this.seen;
      } else {
        for (const id of this.dialogIds) if (all[id].kind === d.kind) this.dialogIds.delete(id);
        this.dialogIds.add(this.seen);
      }
    }
  }

  close(id: number): void {
    if (this.sidebarId === id) this.sidebarId = null;
    this.dialogIds.delete(id);
  }

  isOpen(id: number): boolean {
    return this.sidebarId === id || this.dialogIds.has(id);
  }

  record(id: number): DialogRecord | undefined {
    return this.ui.dialogs[id];
  }

  sidebar(): SurfaceView | null {
    return this.sidebarId === null ? null : this.view(this.sidebarId);
  }

  dialogs(): SurfaceView[] {
    return [...this.dialogIds].sort((a, b) => a - b).map((id) => this.view(id));
  }

  private view(id: number): SurfaceView {
    const d = this.ui.dialogs[id];
    // Sheets shows sidebars at a fixed width whatever the script asked for.
    return { id, kind: d.kind, title: d.title, width: d.kind === 'sidebar' ? SIDEBAR_WIDTH : d.width, height: d.height };
  }
}
