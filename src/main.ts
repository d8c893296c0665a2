/**
 * The add-on's entry points, and nothing else: every export becomes a top-level
 * Apps Script function (menu items, triggers, google.script.run targets).
 */
export { onOpen, onInstall } from './gas/menu';
export { showConnections, listConnections, saveConnection, removeConnection, testConnection } from './gas/connections-api';
export {
  showImport,
  showReports,
  editReport,
  getImportForm,
  startImportRun,
  continueReportRun,
  cancelReportRun,
  runReport,
  saveReport,
  listReports,
  deleteReport,
  setReportSchedule,
} from './gas/reports-api';
export { runScheduledReports } from './gas/dispatcher';
export {
  showBulk,
  getBulkForm,
  createBulkTemplate,
  validateBulk,
  startBulkRun,
  continueBulkRun,
  cancelBulkRun,
  showBulkFailures,
} from './gas/bulk-api';
