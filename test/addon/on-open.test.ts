import { describe, expect, it } from 'vitest';
import type { AuthModeName } from '../../dev/gas/auth';
import type { ServiceCall } from '../../dev/gas/execution';
import { GasEmulator } from '../../dev/gas/runner';

/** Objects onOpen may touch before the add-on is enabled: building menus only. */
const MENU_ONLY = new Set([
  'SpreadsheetApp.getUi',
  'Ui.createAddonMenu',
  'Ui.createMenu',
  'Menu.addItem',
  'Menu.addSeparator',
  'Menu.addSubMenu',
  'Menu.addToUi',
]);

function openWith(mode: AuthModeName): { emu: GasEmulator; calls: string[]; status: string; error?: string } {
  const emu = new GasEmulator();
  const calls: string[] = [];
  const report = emu.open(mode, { onServiceCall: (c: ServiceCall) => calls.push(`${c.object}.${c.method}`) });
  return { emu, calls, status: report.status, error: report.error?.message };
}

describe('onOpen of the real bundle', () => {
  it.each(['NONE', 'LIMITED', 'FULL'] as const)('builds the add-on menu in %s', (mode) => {
    const { emu, status, error } = openWith(mode);
    expect(error).toBeUndefined();
    expect(status).toBe('ok');
    const addon = emu.ui.menus.filter((m) => m.addon);
    expect(addon).toHaveLength(1);
    expect(addon[0].items.filter((i) => i.kind === 'item').length).toBeGreaterThan(0);
    expect(emu.menuItems().every((i) => i.functionName.length > 0)).toBe(true);
  });

  it('touches nothing but the menu builder in AuthMode.NONE', () => {
    const { calls } = openWith('NONE');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((c) => !MENU_ONLY.has(c))).toEqual([]);
  });

  it('onInstall runs in FULL and builds the same menu', () => {
    const emu = new GasEmulator();
    const report = emu.install();
    expect(report.error).toBeUndefined();
    expect(emu.ui.menus.some((m) => m.addon && m.items.length > 0)).toBe(true);
  });
});
