/**
 * SpreadsheetApp.getUi(): menus are recorded as a tree, dialogs and sidebars as
 * records, and alert/prompt answers come from a queue the test fills, because
 * a real user would have to click something.
 */
import { GasObject } from './instrument';
import type { Execution } from './execution';

type GUi = GoogleAppsScript.Base.Ui;
type GMenu = GoogleAppsScript.Base.Menu;
type GButton = GoogleAppsScript.Base.Button;
type GButtonSet = GoogleAppsScript.Base.ButtonSet;
type GHtmlOutput = GoogleAppsScript.HTML.HtmlOutput;

export type MenuEntry =
  | { kind: 'item'; caption: string; functionName: string }
  | { kind: 'separator' }
  | { kind: 'submenu'; caption: string; items: MenuEntry[] };

export interface MenuRecord {
  caption: string;
  /** createAddonMenu(): shown under Extensions > <add-on name>. */
  addon: boolean;
  items: MenuEntry[];
}

export interface DialogRecord {
  kind: 'sidebar' | 'modal' | 'modeless';
  title: string;
  /** Requested width; sidebars are shown about 300 px wide whatever is asked. */
  width: number;
  height: number;
  html: string;
  at: number;
}

export type ButtonName = 'OK' | 'CANCEL' | 'YES' | 'NO' | 'CLOSE';
export interface ScriptedAnswer {
  button?: ButtonName;
  text?: string;
}

export interface UiRecord {
  kind: 'alert' | 'prompt';
  title: string;
  prompt: string;
  buttons: string;
  answer: ScriptedAnswer;
}

export class UiState {
  menus: MenuRecord[] = [];
  dialogs: DialogRecord[] = [];
  prompts: UiRecord[] = [];
  /** Answers for alert()/prompt(), consumed in order. */
  answers: ScriptedAnswer[] = [];
  constructor(public addonName: string) {}
}

const BUTTON_SETS: Record<string, ButtonName[]> = {
  OK: ['OK', 'CLOSE'],
  OK_CANCEL: ['OK', 'CANCEL', 'CLOSE'],
  YES_NO: ['YES', 'NO', 'CLOSE'],
  YES_NO_CANCEL: ['YES', 'NO', 'CANCEL', 'CLOSE'],
};

export const SIDEBAR_WIDTH = 300;

export class MenuImpl extends GasObject implements GMenu {
  readonly gasName = 'Menu';
  readonly items: MenuEntry[] = [];
  constructor(
    private readonly state: UiState,
    readonly caption: string,
    readonly addon: boolean,
  ) {
    super();
  }
  private self(): GMenu {
    return this;
  }
  addItem(caption: string, functionName: string): GMenu {
    this.items.push({ kind: 'item', caption: String(caption), functionName: String(functionName) });
    return this.self();
  }
  addSeparator(): GMenu {
    this.items.push({ kind: 'separator' });
    return this.self();
  }
  addSubMenu(menu: GMenu): GMenu {
    if (!(menu instanceof MenuImpl)) throw new Error('addSubMenu expects a Menu');
    this.items.push({ kind: 'submenu', caption: menu.caption, items: menu.items });
    return this.self();
  }
  addToUi(): void {
    const record: MenuRecord = { caption: this.caption, addon: this.addon, items: this.items };
    const at = this.state.menus.findIndex((m) => m.caption === record.caption && m.addon === record.addon);
    if (at >= 0) this.state.menus[at] = record;
    else this.state.menus.push(record);
  }
}

class PromptResponseImpl extends GasObject implements GoogleAppsScript.Base.PromptResponse {
  readonly gasName = 'PromptResponse';
  constructor(
    private readonly text: string,
    private readonly button: ButtonName,
  ) {
    super();
  }
  getResponseText(): string {
    return this.text;
  }
  getSelectedButton(): GButton {
    return this.button as unknown as GButton;
  }
}

interface HtmlLike {
  getContent(): string;
  getTitle(): string;
  getWidth(): number;
  getHeight(): number;
}

export class UiImpl extends GasObject implements Omit<GUi, 'Button' | 'ButtonSet' | 'showDialog'> {
  readonly gasName = 'Ui';
  readonly Button = { CLOSE: 'CLOSE', OK: 'OK', CANCEL: 'CANCEL', YES: 'YES', NO: 'NO' };
  readonly ButtonSet = { OK: 'OK', OK_CANCEL: 'OK_CANCEL', YES_NO: 'YES_NO', YES_NO_CANCEL: 'YES_NO_CANCEL' };

  constructor(
    private readonly state: UiState,
    private readonly exec: Execution,
  ) {
    super();
  }

  createMenu(caption: string): GMenu {
    return new MenuImpl(this.state, String(caption), false);
  }

  createAddonMenu(): GMenu {
    return new MenuImpl(this.state, this.state.addonName, true);
  }

  private answer(kind: 'alert' | 'prompt', args: unknown[]): ScriptedAnswer & { button: ButtonName } {
    const [title, prompt, buttons] = args.length >= 3 ? args : ['', args[0], args[1]];
    const set = String(buttons ?? 'OK');
    const next = this.state.answers.shift();
    if (!next) throw new Error(`Ui.${kind}("${String(prompt)}"): no scripted answer left; push one onto emulator.ui.answers`);
    const button = next.button ?? 'OK';
    if (!BUTTON_SETS[set]?.includes(button)) throw new Error(`Ui.${kind}: scripted button ${button} is not offered by ButtonSet ${set}`);
    this.state.prompts.push({ kind, title: String(title), prompt: String(prompt), buttons: set, answer: next });
    return { ...next, button };
  }

  alert(...args: [string] | [string, GButtonSet] | [string, string, GButtonSet]): GButton {
    return this.answer('alert', args).button as unknown as GButton;
  }

  prompt(...args: [string] | [string, GButtonSet] | [string, string, GButtonSet]): GoogleAppsScript.Base.PromptResponse {
    const a = this.answer('prompt', args);
    return new PromptResponseImpl(a.text ?? '', a.button);
  }

  private show(kind: DialogRecord['kind'], html: GHtmlOutput, title?: string): void {
    if (this.exec.kind !== 'ui') throw this.exec.error('Cannot call SpreadsheetApp.getUi() from this context.');
    const h = html as unknown as HtmlLike;
    this.state.dialogs.push({
      kind,
      title: title ?? h.getTitle(),
      width: h.getWidth(),
      height: h.getHeight(),
      html: h.getContent(),
      at: this.exec.clock.now(),
    });
  }

  showSidebar(userInterface: GHtmlOutput): void {
    this.show('sidebar', userInterface);
  }

  showModalDialog(userInterface: GHtmlOutput, title: string): void {
    this.show('modal', userInterface, title);
  }

  showModelessDialog(userInterface: GHtmlOutput, title: string): void {
    this.show('modeless', userInterface, title);
  }
}
