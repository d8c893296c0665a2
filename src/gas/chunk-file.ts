/**
 * The code most executions never run lives in files of the project beside the
 * sidebars' pages (`chunk-<name>.html`), not in the script every execution
 * parses. An execution reads one, through HtmlService, only when it first calls
 * into that part, and compiles it then. The build records each file's length
 * and SHA-256: a file that does not read back as built stops the call with a
 * clear error before any of its code runs, and the Diagnóstico compares every
 * file with its hash on the real platform.
 */
import { plural } from '../api/words';
import { attempt, type Row } from './diagnostic-row';

export interface ChunkRecord {
  length: number;
  sha256: string;
}

/** Set by the build: each chunk's length and SHA-256 (hex) as written to its file. */
declare const __CHUNK_FILES__: Record<string, ChunkRecord> | undefined;

export function chunkRecords(): Record<string, ChunkRecord> {
  return typeof __CHUNK_FILES__ === 'undefined' ? {} : __CHUNK_FILES__;
}

export const chunkFileName = (name: string): string => `chunk-${name}`;
const chars = (n: number): string => plural(n, 'caractere', 'caracteres');

/** The file's text as stored: a template's raw content is never evaluated, so scriptlet marks in the code stay as they are. */
function readChunkFile(name: string): string {
  return HtmlService.createTemplateFromFile(chunkFileName(name)).getRawContent();
}

/**
 * Reads a chunk's file, checks its length against the build's record and
 * compiles and runs it with `compile`. Any failure is one error naming the
 * part and its file; nothing of the part is handed out half-loaded.
 */
export function loadChunk<T>(name: string, compile: (source: string) => T): T {
  const record = chunkRecords()[name];
  const where = `a parte "${name}" do código (arquivo ${chunkFileName(name)}.html do projeto)`;
  if (!record) throw new Error(`Não foi possível carregar ${where}: o pacote não a conhece.`);
  let source: string;
  try {
    source = readChunkFile(name);
  } catch (err) {
    // A missing file and a passing service error read the same here: the error says which, in Google's words.
    throw new Error(`Não foi possível ler ${where}: ${(err as Error).message}`);
  }
  if (source.length !== record.length)
    throw new Error(
      `Não foi possível carregar ${where}: ela tem ${chars(source.length)} e o pacote espera ${chars(record.length)}. Publique o projeto de novo com todos os arquivos.`,
    );
  try {
    return compile(source);
  } catch (err) {
    throw new Error(`Não foi possível carregar ${where}: ${(err as Error).message}`);
  }
}

function sha256Hex(text: string): string {
  return Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8)
    .map((b) => ((b + 256) % 256).toString(16).padStart(2, '0'))
    .join('');
}

/** Diagnóstico: every chunk's file reads back with the length and hash the build recorded. */
export function chunkFilesRow(): Row {
  const records = chunkRecords();
  const names = Object.keys(records);
  return attempt('As partes do código guardadas em arquivos HTML do projeto voltam intactas (getRawContent)', () => {
    const wrong = names.filter((n) => {
      const text = readChunkFile(n);
      return text.length !== records[n].length || sha256Hex(text) !== records[n].sha256;
    });
    if (wrong.length) return [`diferentes do que o pacote gravou (tamanho ou SHA-256): ${wrong.map((n) => `${chunkFileName(n)}.html`).join(', ')}`, 'FALHA'];
    const total = names.reduce((sum, n) => sum + records[n].length, 0);
    return [`${plural(names.length, 'arquivo', 'arquivos')}, ${chars(total)}, tamanho e SHA-256 iguais aos do pacote`, 'OK'];
  });
}
