/**
 * SpreadsheetApp.newRichTextValue() and the rich text of a cell, as far as
 * links go: a text with runs linked to URLs (several links in one cell is
 * what a list of spreadsheets needs). Sheets keeps a cell's links apart from
 * its value: setValue and setValues replace the text and drop the links.
 * developers.google.com/apps-script/reference/spreadsheet/rich-text-value-builder
 */
import { GasObject } from './instrument';

type GRich = GoogleAppsScript.Spreadsheet.RichTextValue;
type GBuilder = GoogleAppsScript.Spreadsheet.RichTextValueBuilder;

/** A link over [start, end) of a cell's text. */
export interface LinkRun {
  start: number;
  end: number;
  url: string;
}

export class RichTextValueImpl extends GasObject implements Pick<GRich, 'getText' | 'getLinkUrl' | 'getRuns' | 'getStartIndex' | 'getEndIndex'> {
  readonly gasName = 'RichTextValue';
  constructor(
    readonly text: string,
    readonly links: readonly LinkRun[],
    private readonly newArray: <T>(items: T[]) => T[],
    private readonly start = 0,
    private readonly end = text.length,
  ) {
    super();
  }
  getText(): string {
    return this.text.slice(this.start, this.end);
  }
  getStartIndex(): number {
    return this.start;
  }
  getEndIndex(): number {
    return this.end;
  }
  /** The URL linked over all of [start, end) (the whole value when not given), else null. */
  getLinkUrl(startOffset?: number, endOffset?: number): string | null {
    const from = startOffset ?? this.start;
    const to = endOffset ?? this.end;
    return this.links.find((l) => l.start <= from && l.end >= to)?.url ?? null;
  }
  /** The value cut where its links start and end: each run linked to one URL or to none. */
  getRuns(): GRich[] {
    const cuts = [...new Set([this.start, this.end, ...this.links.flatMap((l) => [l.start, l.end])])]
      .filter((n) => n >= this.start && n <= this.end)
      .sort((a, b) => a - b);
    const runs: GRich[] = [];
    for (let i = 0; i + 1 < cuts.length; i++) runs.push(new RichTextValueImpl(this.text, this.links, this.newArray, cuts[i], cuts[i + 1]) as unknown as GRich);
    return this.newArray(runs);
  }
}

export class RichTextValueBuilderImpl extends GasObject implements Pick<GBuilder, 'setText' | 'setLinkUrl' | 'build'> {
  readonly gasName = 'RichTextValueBuilder';
  private text = '';
  private links: LinkRun[] = [];
  constructor(
    private readonly newArray: <T>(items: T[]) => T[],
    private readonly error: (message: string) => Error,
  ) {
    super();
  }
  private self(): GBuilder {
    return this as unknown as GBuilder;
  }
  setText(text: string): GBuilder {
    this.text = String(text);
    this.links = [];
    return this.self();
  }
  setLinkUrl(a: number | string | null, b?: number, c?: string | null): GBuilder {
    const [start, end, url] = typeof a === 'number' ? [a, b as number, c] : [0, this.text.length, a];
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > this.text.length || start > end)
      throw this.error(`Invalid argument: offsets ${start}..${end} are outside the text (length ${this.text.length}).`);
    this.links = this.links.filter((l) => l.end <= start || l.start >= end);
    if (url) this.links.push({ start, end, url: String(url) });
    return this.self();
  }
  build(): GRich {
    return new RichTextValueImpl(
      this.text,
      [...this.links].sort((x, y) => x.start - y.start),
      this.newArray,
    ) as unknown as GRich;
  }
}
