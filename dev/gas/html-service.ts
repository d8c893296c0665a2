/**
 * HtmlService: files come from dist/ (what clasp pushes), or from the files
 * the emulator was handed (the in-memory bundle's lazy-chunk files); templates
 * run their scriptlets inside the script's own vm context, as Apps Script runs
 * them server-side with access to the script's globals. Each file read is
 * counted (`filesRead`) and, as every service call, charged by the cost model.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import type { Execution } from './execution';
import { GasObject } from './instrument';

type GOutput = GoogleAppsScript.HTML.HtmlOutput;
type GTemplate = GoogleAppsScript.HTML.HtmlTemplate;

export const DEFAULT_DIALOG_WIDTH = 600;
export const DEFAULT_DIALOG_HEIGHT = 400;

export class HtmlOutputImpl
  extends GasObject
  implements
    Pick<
      GOutput,
      | 'append'
      | 'clear'
      | 'getContent'
      | 'getHeight'
      | 'getTitle'
      | 'getWidth'
      | 'setContent'
      | 'setHeight'
      | 'setTitle'
      | 'setWidth'
      | 'setSandboxMode'
      | 'setXFrameOptionsMode'
      | 'addMetaTag'
      | 'setFaviconUrl'
    >
{
  readonly gasName = 'HtmlOutput';
  private title = '';
  private width = DEFAULT_DIALOG_WIDTH;
  private height = DEFAULT_DIALOG_HEIGHT;
  readonly metaTags: { name: string; content: string }[] = [];

  constructor(private content: string) {
    super();
  }
  private self(): GOutput {
    return this as unknown as GOutput;
  }
  getContent(): string {
    return this.content;
  }
  setContent(content: string): GOutput {
    this.content = String(content);
    return this.self();
  }
  append(addedContent: string): GOutput {
    this.content += String(addedContent);
    return this.self();
  }
  clear(): GOutput {
    this.content = '';
    return this.self();
  }
  getTitle(): string {
    return this.title;
  }
  setTitle(title: string): GOutput {
    this.title = String(title);
    return this.self();
  }
  getWidth(): number {
    return this.width;
  }
  setWidth(width: number): GOutput {
    this.width = width;
    return this.self();
  }
  getHeight(): number {
    return this.height;
  }
  setHeight(height: number): GOutput {
    this.height = height;
    return this.self();
  }
  setSandboxMode(_mode: GoogleAppsScript.HTML.SandboxMode): GOutput {
    return this.self();
  }
  setXFrameOptionsMode(_mode: GoogleAppsScript.HTML.XFrameOptionsMode): GOutput {
    return this.self();
  }
  addMetaTag(name: string, content: string): GOutput {
    this.metaTags.push({ name, content });
    return this.self();
  }
  setFaviconUrl(_iconUrl: string): GOutput {
    return this.self();
  }
}

/** Scriptlets to JS: <? code ?>, <?= escaped ?>, <?!= raw ?>. */
export function compileTemplate(source: string): string {
  let code = 'var __out = [];\n';
  const re = /<\?(!=|=)?([\s\S]*?)\?>/g;
  let last = 0;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    if (m.index > last) code += `__out.push(${JSON.stringify(source.slice(last, m.index))});\n`;
    const body = m[2].trim();
    if (m[1] === '=') code += `__out.push(__esc(${body}));\n`;
    else if (m[1] === '!=') code += `__out.push(__raw(${body}));\n`;
    else code += `${m[2]}\n`;
    last = re.lastIndex;
  }
  if (last < source.length) code += `__out.push(${JSON.stringify(source.slice(last))});\n`;
  return code;
}

const escapeHtml = (v: unknown): string =>
  v === undefined || v === null
    ? ''
    : String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const raw = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

export class HtmlTemplateImpl extends GasObject implements Pick<GTemplate, 'evaluate' | 'getCode' | 'getRawContent'> {
  readonly gasName = 'HtmlTemplate';
  override readonly gasOpenFields = true;
  [field: string]: unknown;

  constructor(
    private readonly source: string,
    private readonly exec: Execution,
  ) {
    super();
  }

  getRawContent(): string {
    return this.source;
  }

  getCode(): string {
    return compileTemplate(this.source);
  }

  evaluate(): GOutput {
    // Sloppy-mode function so `with` exposes the template's fields as variables.
    const fn = vm.runInContext(
      `(function (__t, __esc, __raw) { with (__t) { ${compileTemplate(this.source)} return __out.join(''); } })`,
      this.exec.realm.context,
    ) as (t: object, esc: typeof escapeHtml, r: typeof raw) => string;
    const fields = this.exec.realm.object();
    for (const key of Object.keys(this)) {
      if (!['source', 'exec', 'gasName', 'gasOpenFields'].includes(key)) fields[key] = this[key];
    }
    return new HtmlOutputImpl(fn(fields, escapeHtml, raw)) as unknown as GOutput;
  }
}

export class HtmlServiceImpl
  extends GasObject
  implements Pick<GoogleAppsScript.HTML.HtmlService, 'createHtmlOutput' | 'createHtmlOutputFromFile' | 'createTemplate' | 'createTemplateFromFile'>
{
  readonly gasName = 'HtmlService';
  readonly SandboxMode = { IFRAME: 'IFRAME', NATIVE: 'NATIVE', EMULATED: 'EMULATED' };
  readonly XFrameOptionsMode = { ALLOWALL: 'ALLOWALL', DEFAULT: 'DEFAULT' };

  constructor(
    private readonly htmlDir: string,
    private readonly exec: Execution,
    private readonly files: Record<string, string> = {},
  ) {
    super();
  }

  private read(filename: string): string {
    const name = filename.endsWith('.html') ? filename : `${filename}.html`;
    const path = join(this.htmlDir, name);
    const given = Object.hasOwn(this.files, name) ? this.files[name] : undefined;
    if (given === undefined && !existsSync(path)) throw this.exec.error(`No HTML file named ${filename} was found.`);
    this.exec.counters.filesRead += 1;
    return given ?? readFileSync(path, 'utf8');
  }

  createHtmlOutput(html?: string | GoogleAppsScript.Base.BlobSource): GOutput {
    return new HtmlOutputImpl(typeof html === 'string' ? html : html ? html.getBlob().getDataAsString() : '') as unknown as GOutput;
  }

  createHtmlOutputFromFile(filename: string): GOutput {
    return new HtmlOutputImpl(this.read(filename)) as unknown as GOutput;
  }

  createTemplate(html: string | GoogleAppsScript.Base.BlobSource): GTemplate {
    return new HtmlTemplateImpl(typeof html === 'string' ? html : html.getBlob().getDataAsString(), this.exec) as unknown as GTemplate;
  }

  createTemplateFromFile(filename: string): GTemplate {
    return new HtmlTemplateImpl(this.read(filename), this.exec) as unknown as GTemplate;
  }
}
