/**
 * The add-on menu. onOpen may run in AuthMode.NONE (before the add-on is enabled
 * in this file), where properties and UrlFetch throw: it only builds the menu.
 */
export function onOpen(_e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  SpreadsheetApp.getUi()
    .createAddonMenu()
    .addItem('Importar dados…', 'showImport')
    .addItem('Relatórios', 'showReports')
    .addItem('Lançamentos em lote', 'showBulk')
    .addItem('Enviar alterações da planilha…', 'showEditPush')
    .addItem('Painéis', 'showDashboards')
    .addItem('Central do escritório…', 'showCentral')
    .addSeparator()
    .addItem('Conexões', 'showConnections')
    .addSeparator()
    .addItem('Ajuda e primeiros passos', 'showHelp')
    .addItem('Diagnóstico (ajuda)', 'runDiagnostics')
    .addItem('Sobre', 'showAbout')
    .addToUi();
}

export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as unknown as GoogleAppsScript.Events.SheetsOnOpen);
}
