/**
 * The add-on's entry points, and nothing else: every export becomes a top-level
 * Apps Script function, callable by any page of the add-on through
 * google.script.run. So the exports are exactly the menu's handlers, the
 * triggers and the sidebar contract (test/addon/entrypoints.test.ts checks it).
 */
export { onOpen, onInstall } from './gas/menu';
export { showConnections } from './gas/conexoes-server';
export { showImport } from './gas/importar-server';
export { showReports } from './gas/relatorios-server';
export { runScheduledReports } from './gas/dispatcher';
export { showBulk } from './gas/lote-server';
export { showEditPush } from './gas/alteracoes-server';
export { showDashboards } from './gas/paineis-server';
export { showCentral } from './gas/central-server';
export { runDiagnostics } from './gas/diagnostics';
export { showAbout, showHelp } from './gas/ajuda-server';
export * from './gas/sidebar-contract';
