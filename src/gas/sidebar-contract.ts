/**
 * The server functions the sidebars may call, and no others: every export of
 * src/main.ts is a global that any page of the add-on can reach through
 * google.script.run, so a function no sidebar calls is only attack surface.
 *
 * Sidebars import this module's types only (src/ui/client/rpc.ts turns them
 * into `server.name(...)` promises): a server signature that changes breaks
 * their type-check, and none of this code reaches their bundle.
 */
export { getConnectionOptions, listConnections, removeConnection, saveConnection, testConnection } from './conexoes-server';
export { discardFailedImport, editReport, getImportForm, showImport, startImportRun } from './importar-server';
export { cancelReportRun, continueReportRun, requestCancelReportRun } from './runs-server';
export { deleteReport, getUsage, listReports, runReport, setReportConnection, setReportSchedule, takeOverReport } from './relatorios-server';
export {
  cancelBulkRun,
  continueBulkRun,
  createBulkTemplate,
  getBulkForm,
  showBulkFailures,
  showBulk,
  startBulkRun,
  takeOverBulkRun,
  validateBulk,
} from './lote-server';
export { getEditForm, previewSheetEdits, startEditPushRun } from './alteracoes-server';
export { createDashboard, deleteDashboard, getDashboards, prepareNfseIssue, refreshDashboardNow, showClosingRows } from './paineis-server';
export {
  continueCentralRefresh,
  getCentral,
  markCompanyReviewed,
  openCompanyClosing,
  redrawCentralSheet,
  runCompanyReports,
  runCompanyReportsElsewhere,
  setCompanyPaused,
  startCentralRefresh,
} from './central-server';
export { getAbout } from './ajuda-server';
export type { FieldRefusal, FormOutcome, Outcome, Refusal } from './outcome';
