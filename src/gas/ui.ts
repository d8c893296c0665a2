/** Opening the add-on's HTML surfaces. */
export function showSidebar(file: string, title: string): void {
  const html = HtmlService.createHtmlOutputFromFile(file).setTitle(title);
  SpreadsheetApp.getUi().showSidebar(html);
}
