/** SpreadsheetApp.newDataValidation(): only value-in-list rules, which is what the add-on uses. */
import { GasObject } from './instrument';
import type { ValidationSpec } from './spreadsheet-model';

type GDataValidation = GoogleAppsScript.Spreadsheet.DataValidation;
type GBuilder = GoogleAppsScript.Spreadsheet.DataValidationBuilder;
type Criteria = GoogleAppsScript.Spreadsheet.DataValidationCriteria;

export class DataValidationImpl extends GasObject implements GDataValidation {
  readonly gasName = 'DataValidation';
  constructor(
    readonly spec: ValidationSpec,
    private readonly newArray: <T>(items: T[]) => T[],
  ) {
    super();
  }
  copy(): GBuilder {
    return new DataValidationBuilderImpl(this.newArray, { ...this.spec, values: [...this.spec.values] }) as unknown as GBuilder;
  }
  getAllowInvalid(): boolean {
    return this.spec.allowInvalid;
  }
  getCriteriaType(): Criteria {
    // The enum exists only as a type on the host; Apps Script's value prints as its name.
    return this.spec.kind as unknown as Criteria;
  }
  getCriteriaValues(): any[] {
    return this.newArray([this.newArray([...this.spec.values]), this.spec.showDropdown]);
  }
  getHelpText(): string {
    return this.spec.helpText ?? '';
  }
}

export class DataValidationBuilderImpl
  extends GasObject
  implements
    Pick<GBuilder, 'build' | 'copy' | 'getAllowInvalid' | 'getHelpText' | 'requireValueInList' | 'setAllowInvalid' | 'setHelpText' | 'getCriteriaValues'>
{
  readonly gasName = 'DataValidationBuilder';
  constructor(
    private readonly newArray: <T>(items: T[]) => T[],
    private spec: Partial<ValidationSpec> = { allowInvalid: true },
  ) {
    super();
  }
  private self(): GBuilder {
    return this as unknown as GBuilder;
  }
  requireValueInList(values: string[], showDropdown?: boolean): GBuilder {
    this.spec = { ...this.spec, kind: 'VALUE_IN_LIST', values: Array.from(values, String), showDropdown: showDropdown ?? true };
    return this.self();
  }
  setAllowInvalid(allowInvalidData: boolean): GBuilder {
    this.spec.allowInvalid = allowInvalidData;
    return this.self();
  }
  setHelpText(helpText: string): GBuilder {
    this.spec.helpText = helpText;
    return this.self();
  }
  getAllowInvalid(): boolean {
    return this.spec.allowInvalid ?? true;
  }
  getHelpText(): string | null {
    return this.spec.helpText ?? null;
  }
  getCriteriaValues(): any[] {
    return this.newArray(this.spec.values ? [this.newArray([...this.spec.values]), this.spec.showDropdown] : []);
  }
  copy(): GBuilder {
    return new DataValidationBuilderImpl(this.newArray, { ...this.spec }) as unknown as GBuilder;
  }
  build(): GDataValidation {
    if (!this.spec.kind || !this.spec.values) throw new Error('You must specify a validation criteria before building the rule.');
    return new DataValidationImpl(this.spec as ValidationSpec, this.newArray);
  }
}
