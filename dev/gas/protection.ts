/**
 * Protection of a whole sheet, as Sheet.protect() gives it. Only what the
 * add-on uses: a description, and warning-only protection, where Sheets asks a
 * person "are you sure?" before an edit by hand and lets scripts write as
 * before. A protection that is not warning-only would limit editors, which the
 * emulator's documents (every user an editor) do not model.
 */
import { GasObject } from './instrument';
import type { SheetModel } from './spreadsheet-model';

type GProtection = GoogleAppsScript.Spreadsheet.Protection;

export interface ProtectionModel {
  description: string;
  warningOnly: boolean;
}

type Implemented = 'setWarningOnly' | 'isWarningOnly' | 'setDescription' | 'getDescription' | 'getProtectionType' | 'remove';

export class ProtectionImpl extends GasObject implements Pick<GProtection, Implemented> {
  readonly gasName = 'Protection';

  constructor(private readonly sheet: SheetModel) {
    super();
  }

  /** Looked up at each call: another execution's changes brought in meanwhile replace the sheet's protection objects. */
  private get model(): ProtectionModel {
    return this.sheet.protections[0] ?? { description: '', warningOnly: false };
  }

  private self(): GProtection {
    return this as unknown as GProtection;
  }

  setWarningOnly(warningOnly: boolean): GProtection {
    this.model.warningOnly = Boolean(warningOnly);
    return this.self();
  }

  isWarningOnly(): boolean {
    return this.model.warningOnly;
  }

  setDescription(description: string): GProtection {
    this.model.description = String(description);
    return this.self();
  }

  getDescription(): string {
    return this.model.description;
  }

  getProtectionType(): GoogleAppsScript.Spreadsheet.ProtectionType {
    return 'SHEET' as unknown as GoogleAppsScript.Spreadsheet.ProtectionType;
  }

  remove(): void {
    this.sheet.protections = [];
  }
}

/** A sheet's protection: one per sheet, as in Sheets (protect() on a protected sheet returns the one it has). */
export function protect(sheet: SheetModel): ProtectionImpl {
  // Sheets' default: a full protection (only the owner edits) until made warning-only.
  if (!sheet.protections.length) sheet.protections.push({ description: '', warningOnly: false });
  return new ProtectionImpl(sheet);
}
