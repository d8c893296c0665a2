/**
 * What each authorization mode may touch. Editor add-ons run onOpen in
 * AuthMode.NONE until the user enables them in the file (menus only), in
 * LIMITED as a simple trigger afterwards (the bound document, properties, no
 * service needing authorization), and in FULL from menus, sidebars and
 * installable triggers.
 */
export type AuthModeName = 'NONE' | 'CUSTOM_FUNCTION' | 'LIMITED' | 'FULL';

const LEVEL: Record<AuthModeName, number> = { NONE: 0, CUSTOM_FUNCTION: 1, LIMITED: 1, FULL: 2 };

/** Minimum level per "Object.method" or per "Object" (fallback); unlisted objects need nothing. */
const REQUIRED: Record<string, number> = {
  'SpreadsheetApp.getUi': 0,
  'SpreadsheetApp.newDataValidation': 0,
  'SpreadsheetApp.flush': 0,
  SpreadsheetApp: 1,
  Spreadsheet: 1,
  Sheet: 1,
  Range: 1,
  RangeList: 1,
  Selection: 1,
  Filter: 1,
  EmbeddedChart: 1,
  EmbeddedChartBuilder: 1,
  PivotTable: 1,
  PivotGroup: 1,
  PivotValue: 1,
  PivotFilter: 1,
  'SpreadsheetApp.newFilterCriteria': 0,
  'Ui.alert': 1,
  'Ui.prompt': 1,
  'Ui.showSidebar': 1,
  'Ui.showModalDialog': 1,
  'Ui.showModelessDialog': 1,
  PropertiesService: 1,
  Properties: 1,
  CacheService: 1,
  Cache: 1,
  LockService: 1,
  Lock: 1,
  'Session.getActiveUser': 1,
  'Session.getEffectiveUser': 1,
  'Session.getTemporaryActiveUserKey': 1,
  UrlFetchApp: 2,
  MailApp: 2,
  'ScriptApp.newTrigger': 2,
  'ScriptApp.getProjectTriggers': 2,
  'ScriptApp.getUserTriggers': 2,
  'ScriptApp.deleteTrigger': 2,
  TriggerBuilder: 2,
  ClockTriggerBuilder: 2,
};

const SCOPES: Record<string, string> = {
  UrlFetchApp: 'https://www.googleapis.com/auth/script.external_request',
  MailApp: 'https://www.googleapis.com/auth/script.send_mail',
  ScriptApp: 'https://www.googleapis.com/auth/script.scriptapp',
  SpreadsheetApp: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  Spreadsheet: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  Sheet: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  Range: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
};

export const AUTHORIZATION_REQUIRED_MESSAGE = 'Authorization is required to perform that action.';

/**
 * Calls needing a scope beyond the bound document's, with that scope. A user
 * who must authorize again is refused those whose scope a new version added
 * (`authorizationRequired` lists them); when the emulator is not told which
 * (`true`), all of them, as Apps Script would refuse the newest.
 */
const NEEDS_GRANT: Record<string, string> = {
  UrlFetchApp: 'https://www.googleapis.com/auth/script.external_request',
  MailApp: 'https://www.googleapis.com/auth/script.send_mail',
  'SpreadsheetApp.openById': 'https://www.googleapis.com/auth/spreadsheets',
};

/**
 * The Apps Script-like message when `mode` may not call `object.method`, or when
 * the user must authorize the script again and the call needs a scope not granted; else null.
 */
export function authDenial(object: string, method: string, mode: AuthModeName, authorizationRequired: boolean | readonly string[] = false): string | null {
  const need = REQUIRED[`${object}.${method}`] ?? REQUIRED[object] ?? 0;
  if (LEVEL[mode] < need) {
    const scope = SCOPES[object];
    return `You do not have permission to call ${object}.${method}${scope ? `. Required permissions: ${scope}` : ''}`;
  }
  const grant = NEEDS_GRANT[`${object}.${method}`] ?? NEEDS_GRANT[object];
  if (grant && (authorizationRequired === true || (Array.isArray(authorizationRequired) && authorizationRequired.includes(grant)))) {
    return AUTHORIZATION_REQUIRED_MESSAGE;
  }
  return null;
}
