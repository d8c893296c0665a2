/**
 * Products and plans to pick from in the templates. The service lists neither,
 * but every subscription carries idProduto/descricaoProduto and
 * idPlano/descricaoPlano: a reference tab ("Produtos", "Planos") is filled from
 * the imported Assinaturas e contratos sheets, rewritten after each run of such
 * a report, and the template's ID column gets a dropdown of "id — descrição",
 * so a product is picked by its name and the row still sends its id.
 */
import { COLUMN_TAG, LISTING_TAG, SHEET_TAG } from '../sheets/sheet-layout';
import type { MarkupSheetPort, SelectionBookPort, SheetPort } from '../sheets/sheet-port';
import type { CellValue } from '../sheets/table';
import { plural } from '../../api/words';
import { type BulkOperation, bulkOperations, type InputColumn, TEMPLATE_ROWS } from './definitions';
import { normalizeHeader } from './headers';

type CatalogKey = 'produtos' | 'planos';

interface Catalog {
  sheet: string;
  /** The subscription's fields: the id and its description. */
  id: string;
  name: string;
  idLabel: string;
  nameLabel: string;
  /** "produto", "produtos": for the texts. */
  one: string;
  many: string;
}

const CATALOGS: Record<CatalogKey, Catalog> = {
  produtos: { sheet: 'Produtos', id: 'idProduto', name: 'descricaoProduto', idLabel: 'ID do produto', nameLabel: 'Produto', one: 'produto', many: 'produtos' },
  planos: { sheet: 'Planos', id: 'idPlano', name: 'descricaoPlano', idLabel: 'ID do plano', nameLabel: 'Plano', one: 'plano', many: 'planos' },
};

/** Sheets' dropdowns show a list of at most this many choices; the tab itself lists every one. */
const MAX_CHOICES = 500;
const SEPARATOR = ' — ';

/** A dropdown choice: "789 — Honorários contábeis". */
const pickLabel = (id: number, name: string): string => (name ? `${id}${SEPARATOR}${name}` : String(id));

/** The id of a choice the dropdown wrote ("789 — Honorários contábeis" → 789); null for any other text. */
export function pickedId(text: string): number | null {
  const m = /^\s*(\d+) — \S/.exec(text);
  return m ? Number(m[1]) : null;
}

interface Entry {
  id: number;
  name: string;
  count: number;
  sheets: Set<string>;
}

/** An imported subscriptions sheet as the catalogs read it: each call to it is a round trip, so each is made once. */
interface Source {
  sheet: SheetPort;
  tags: ReadonlyMap<string, number>;
  last: number;
  name?: string;
}

/** A catalog's ids and descriptions in one imported sheet, added to what `found` has. */
function collectFrom(source: Source, catalog: Catalog, found: Map<string, Entry>): void {
  const { sheet, tags, last } = source;
  const idAt = tags.get(catalog.id);
  const nameAt = tags.get(catalog.name);
  if (idAt === undefined || last < 2) return;
  const ids = sheet.read(2, idAt, last - 1, 1);
  const names = nameAt === undefined ? [] : sheet.read(2, nameAt, last - 1, 1);
  ids.forEach(([cell], i) => {
    const id = typeof cell === 'number' ? cell : /^\s*\d+\s*$/.test(String(cell ?? '')) ? Number(cell) : Number.NaN;
    if (!Number.isSafeInteger(id) || id < 1) return;
    const name = String(names[i]?.[0] ?? '').trim();
    const key = `${id}\n${name}`;
    const entry = found.get(key) ?? { id, name, count: 0, sheets: new Set<string>() };
    entry.count++;
    source.name ??= sheet.name();
    entry.sheets.add(source.name);
    found.set(key, entry);
  });
}

/** Every product and plan of `keys` the imported subscriptions sheets hold, by id and description, most used first within a name: one pass over the sheets. */
function collect(book: SelectionBookPort, keys: readonly CatalogKey[]): Map<CatalogKey, Entry[]> {
  const found = new Map(keys.map((key) => [key, new Map<string, Entry>()]));
  if (keys.length)
    for (const { sheet, value } of book.tagged(LISTING_TAG)) {
      if (value !== 'assinaturas') continue;
      const source: Source = { sheet, tags: sheet.columnTags(COLUMN_TAG), last: sheet.lastRow() };
      for (const [key, entries] of found) collectFrom(source, CATALOGS[key], entries);
    }
  const sorted = (entries: Map<string, Entry>) => [...entries.values()].sort((a, b) => a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id);
  return new Map([...found].map(([key, entries]) => [key, sorted(entries)]));
}

function catalogSheet(book: SelectionBookPort, key: CatalogKey, create: boolean): MarkupSheetPort | null {
  const tagged = book.tagged(SHEET_TAG, `modelo:${key}`)[0];
  if (tagged) return book.byId(tagged.sheet.id);
  if (!create) return null;
  const taken = new Set(book.sheetNames());
  let name = CATALOGS[key].sheet;
  for (let i = 2; taken.has(name); i++) name = `${CATALOGS[key].sheet} (${i})`;
  const sheet = book.create(name, 4);
  // The add-on's own tab: never an import's destination, rewritten whole by each refresh.
  sheet.setSheetTag(SHEET_TAG, `modelo:${key}`);
  return sheet;
}

function writeCatalog(sheet: MarkupSheetPort, catalog: Catalog, entries: readonly Entry[]): void {
  const header = [catalog.idLabel, catalog.nameLabel, 'Assinaturas', 'Abas de origem'];
  const rows: CellValue[][] = entries.length
    ? entries.map((e) => [e.id, e.name, e.count, [...e.sheets].join(', ')])
    : [['', `Nenhum ${catalog.one} ainda: importe Assinaturas e contratos (Importar dados) e esta aba se preenche sozinha.`, '', '']];
  const old = sheet.lastRow();
  sheet.ensureSize(rows.length + 1, header.length);
  sheet.setFormats(1, 1, 1, ['@', '@', '@', '@']);
  sheet.setFormats(2, 1, rows.length, ['0', '@', '0', '@']);
  sheet.write(1, 1, [header]);
  sheet.setNotes(1, 1, [
    `${catalog.id} — ID a escolher na coluna "${catalog.idLabel}" dos modelos de Lançamentos em lote. Esta aba é preenchida pelo complemento com os ${catalog.many} das abas importadas de Assinaturas e contratos e reescrita a cada atualização desses relatórios: não edite aqui.`,
    `${catalog.name} — Descrição, como o serviço a devolve nas assinaturas.`,
    `Quantas assinaturas importadas usam este ${catalog.one}.`,
    'As abas importadas em que ele aparece (empresas diferentes têm IDs próprios).',
  ]);
  sheet.write(2, 1, rows);
  if (old > rows.length + 1) sheet.clear(rows.length + 2, 1, old - rows.length - 1, header.length);
  sheet.freezeRows(1);
  sheet.setHeaderStyle(header.length);
  sheet.setColumnWidth(2, 280);
}

/** The column of `field` in a template: the one titled with its label or whose note starts with the field name. */
function templateColumn(sheet: MarkupSheetPort, col: InputColumn): number | null {
  const width = sheet.lastColumn();
  if (width < 1) return null;
  const labels = sheet.read(1, 1, 1, width)[0].map((v) => normalizeHeader(String(v ?? '')));
  const notes = sheet.readNotes(1, 1, width);
  const at = labels.findIndex((l, i) => l === normalizeHeader(col.label) || String(notes[i] ?? '').startsWith(`${col.field} — `));
  return at < 0 ? null : at + 1;
}

/** Each template whose column picks from `key` gets the dropdown of what the tab now lists. */
function offerChoices(book: SelectionBookPort, key: CatalogKey, entries: readonly Entry[]): void {
  if (entries.length === 0) return;
  const catalog = CATALOGS[key];
  const choices = entries.slice(0, MAX_CHOICES).map((e) => pickLabel(e.id, e.name));
  const more =
    entries.length > MAX_CHOICES ? ` A lista mostra ${plural(MAX_CHOICES, catalog.one, catalog.many)} de ${entries.length}; os demais estão na aba.` : '';
  const help = `Escolha o ${catalog.one} pelo nome (a linha envia o ID antes do "—") ou digite o ID. Lista da aba "${catalog.sheet}".${more}`;
  for (const { sheet: tagged, value } of book.tagged(SHEET_TAG)) {
    const op = /^modelo:(.+)$/.exec(value)?.[1];
    const columns = op ? columnsOf(op).filter((c) => c.catalog === key) : [];
    const sheet = columns.length ? book.byId(tagged.id) : null;
    if (!sheet) continue;
    for (const col of columns) {
      const at = templateColumn(sheet, col);
      if (at !== null) sheet.setDropdown(2, at, Math.max(TEMPLATE_ROWS, sheet.lastRow() - 1), choices, help);
    }
  }
}

/** The input columns of a template's operation; none for the add-on's other tabs (Descontos, Produtos). */
const columnsOf = (op: string): readonly InputColumn[] => (bulkOperations as Record<string, BulkOperation | undefined>)[op]?.columns ?? [];

/** The catalogs a template's columns pick from. */
export function catalogsOf(columns: readonly InputColumn[]): CatalogKey[] {
  return [...new Set(columns.flatMap((c) => (c.catalog ? [c.catalog] : [])))];
}

/**
 * Rewrites the reference tabs from the imported subscriptions sheets and the templates' dropdowns from them.
 * A tab is created only when `create` names it (a template that picks from it was just made); otherwise only
 * tabs already there are kept current, so a spreadsheet without templates gets no tab it never asked for.
 */
export function refreshCatalogs(book: SelectionBookPort, create: readonly CatalogKey[] = []): string[] {
  const tabs = new Map<CatalogKey, MarkupSheetPort>();
  for (const key of Object.keys(CATALOGS) as CatalogKey[]) {
    const sheet = catalogSheet(book, key, create.includes(key));
    if (sheet) tabs.set(key, sheet);
  }
  const collected = collect(book, [...tabs.keys()]);
  const written: string[] = [];
  for (const [key, sheet] of tabs) {
    const entries = collected.get(key) as Entry[];
    writeCatalog(sheet, CATALOGS[key], entries);
    offerChoices(book, key, entries);
    written.push(sheet.name());
  }
  return written;
}
