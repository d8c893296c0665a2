/** Menu construction; runs in AuthMode.NONE before the add-on is enabled, so it touches nothing else. */
export function onOpen(_e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  SpreadsheetApp.getUi().createAddonMenu().addItem('Conexões', 'showConnections').addToUi();
}

export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as unknown as GoogleAppsScript.Events.SheetsOnOpen);
}
