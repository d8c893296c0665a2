/**
 * Connections to the billing service: a name, a base URL and an API key. An
 * accountant serves many companies, so there may be many; one is the default.
 * The list lives in the user's properties and each key in its own user property:
 * never in the document, a cell, a log or anything sent to the sidebar.
 */
import type { KeyValueStore } from '../ports';
import { readJson, writeJson } from '../ports';
import { UserError } from '../../api/user-error';
import { describeOrganization, type Organization } from './organizations';

export interface Connection {
  id: string;
  name: string;
  baseUrl: string;
  isDefault: boolean;
  /** The zone the service reads and writes date-times in, when not America/Sao_Paulo. */
  timeZone?: string;
  /** The organization its key reached when last tested (see organizations.ts). */
  organization?: Organization;
  /** Why the last test of its saved key failed, in words; none once it works. */
  keyProblem?: string;
}

/** What the sidebar may see: everything but the key. */
export interface ConnectionView extends Connection {
  hasKey: boolean;
}

export interface ConnectionInput {
  id?: string;
  name: string;
  baseUrl: string;
  /** Blank when editing keeps the saved key. */
  apiKey?: string;
  isDefault?: boolean;
}

/** Thrown when a connection is saved with a bad name, address or key, or when the one asked for is missing or has no key. */
export class ConnectionError extends UserError {
  override name = 'ConnectionError';
  constructor(
    override readonly field: 'name' | 'baseUrl' | 'apiKey' | 'id',
    message: string,
  ) {
    super(message, field);
  }
}

const LIST = 'faturamento.conexoes';
const keyProp = (id: string) => `faturamento.conexao.${id}.chave`;

/** Hosts of this machine, always allowed and the only ones allowed plain http: a sandbox of the service. */
export const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Local hosts may use plain http: that is the sandbox; anything else must be https. */
export function normaliseBaseUrl(raw: string): string {
  const url = raw.trim().replace(/\/+$/, '');
  const m = /^(https?):\/\/([^/?#:]+)(:\d+)?(\/[^?#]*)?$/i.exec(url);
  if (!m) throw new ConnectionError('baseUrl', 'Informe o endereço base completo, por exemplo https://api.exemplo.com.br');
  const [, scheme, host] = m;
  const local = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(host);
  if (scheme.toLowerCase() !== 'https' && !local) throw new ConnectionError('baseUrl', 'O endereço base precisa começar com https://');
  // The paths of the interface start with /v2: a base URL that already ends in it would double it.
  if (/\/v2$/i.test(url)) throw new ConnectionError('baseUrl', 'Informe o endereço sem o /v2 no final (o complemento acrescenta /v2 a cada operação)');
  return url;
}

/** The origin of a URL (scheme, host, port), lower-cased, or null. */
function originOf(url: string): string | null {
  const m = /^(https?):\/\/([^/?#]+)/i.exec(url.trim());
  return m ? `${m[1]}://${m[2]}`.toLowerCase() : null;
}

/** Whether a URL is the local sandbox's (any port); text that is no URL is not. */
const isLocal = (url: string) => originOf(url)?.match(/^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i) != null;

/**
 * Why `baseUrl` cannot be used by this build, or null. A published add-on
 * fetches only from the hosts of its manifest's allow-list, which the build
 * writes from addon.config.json: any other host would only ever answer
 * "Sem resposta do serviço". Local addresses stay allowed for the sandbox.
 */
export function hostProblem(baseUrl: string, allowed: readonly string[] | null): string | null {
  if (!allowed || isLocal(baseUrl)) return null;
  const origin = originOf(baseUrl);
  if (allowed.some((a) => originOf(a) === origin)) return null;
  return `Este complemento só pode acessar ${allowed.map((a) => originOf(a)).join(', ')}. Outro endereço precisa ser incluído pelo administrador do complemento na publicação (arquivo addon.config.json, "apiBaseUrls").`;
}

export class ConnectionStore {
  constructor(
    private readonly user: KeyValueStore,
    private readonly newId: () => string,
    /** Base URLs the build allows (see hostProblem); null allows any. */
    readonly allowed: readonly string[] | null = null,
  ) {}

  private all(): Connection[] {
    return readJson<Connection[]>(this.user, LIST, []);
  }

  private save(list: Connection[]): void {
    if (list.length > 0 && !list.some((c) => c.isDefault)) list[0].isDefault = true;
    writeJson(this.user, LIST, list);
  }

  list(): ConnectionView[] {
    return this.all().map((c) => ({ ...c, hasKey: Boolean(this.user.get(keyProp(c.id))) }));
  }

  get(idOrName?: string | null): Connection {
    const list = this.all();
    if (list.length === 0) throw new ConnectionError('id', 'Nenhuma conexão configurada: abra Faturamento › Conexões e adicione uma.');
    const found = idOrName ? list.find((c) => c.id === idOrName || c.name === idOrName) : (list.find((c) => c.isDefault) ?? list[0]);
    if (!found) throw new ConnectionError('id', `A conexão "${idOrName}" não existe mais: escolha outra em Faturamento › Conexões.`);
    return found;
  }

  /** A connection of this user by its id: reports and runs never find one by name. */
  byId(id: string): Connection {
    const found = id ? this.all().find((c) => c.id === id) : undefined;
    if (!found)
      throw new ConnectionError(
        'id',
        'A conexão escolhida para isto não existe mais nas suas Conexões: clique em "Trocar conexão" no relatório e escolha outra.',
      );
    return found;
  }

  /** Every key this user has, to scrub them out of what servers answer. */
  secrets(): string[] {
    return this.all()
      .map((c) => this.user.get(keyProp(c.id)))
      .filter((k): k is string => Boolean(k));
  }

  /** The key, for the client only. */
  apiKey(id: string): string {
    const key = this.user.get(keyProp(id));
    if (!key) throw new ConnectionError('apiKey', 'Esta conexão não tem chave de API salva: edite-a em Faturamento › Conexões.');
    return key;
  }

  upsert(input: ConnectionInput): ConnectionView {
    const list = this.all();
    const name = input.name.trim();
    if (!name) throw new ConnectionError('name', 'Dê um nome à conexão (por exemplo, o nome da empresa).');
    if (name.length > 80) throw new ConnectionError('name', 'Use um nome de até 80 caracteres.');
    if (list.some((c) => c.name.toLowerCase() === name.toLowerCase() && c.id !== input.id)) {
      throw new ConnectionError('name', `Já existe uma conexão chamada "${name}".`);
    }
    const baseUrl = normaliseBaseUrl(input.baseUrl);
    const key = input.apiKey?.trim();
    const existing = input.id ? list.find((c) => c.id === input.id) : undefined;
    if (input.id && !existing) throw new ConnectionError('id', 'Esta conexão não existe mais.');
    if (!existing && !key) throw new ConnectionError('apiKey', 'Informe a chave de API.');
    if (key?.match(/\s/)) throw new ConnectionError('apiKey', 'A chave de API não pode ter espaços.');
    const blocked = hostProblem(baseUrl, this.allowed);
    if (blocked) throw new ConnectionError('baseUrl', blocked);
    // A new connection is the default only when it is the first: save() sees to it.
    const conn: Connection = existing ?? { id: this.newId(), name, baseUrl, isDefault: false };
    conn.name = name;
    conn.baseUrl = baseUrl;
    if (!existing) list.push(conn);
    if (input.isDefault) for (const c of list) c.isDefault = c.id === conn.id;
    if (key) this.user.set(keyProp(conn.id), key);
    // Another key or address may reach another organization: the next test tells.
    if (key || baseUrl !== existing?.baseUrl) {
      delete conn.organization;
      delete conn.keyProblem;
    }
    this.save(list);
    return { ...conn, hasKey: Boolean(this.user.get(keyProp(conn.id))) };
  }

  /** What a test of the connection's saved key and address found: the organization it reaches, or why it failed. */
  recordCheck(id: string, found: { organization?: Organization; keyProblem?: string }): void {
    const list = this.all();
    const conn = list.find((c) => c.id === id);
    if (!conn) return;
    if (found.keyProblem) conn.keyProblem = found.keyProblem;
    else delete conn.keyProblem;
    if (found.organization) conn.organization = found.organization;
    else if (!found.keyProblem) delete conn.organization;
    this.save(list);
  }

  /** Why saving `id` deserves a warning: another connection of this user reaches the same organization. */
  sameOrganization(id: string): string | undefined {
    const list = this.all();
    const conn = list.find((c) => c.id === id);
    const org = conn?.organization;
    if (!conn || !org) return undefined;
    const others = list.filter((c) => c.id !== id && c.organization?.key === org.key).map((c) => `"${c.name}"`);
    if (!others.length) return undefined;
    return `A conexão "${conn.name}" chega à mesma organização que ${others.join(', ')}: ${describeOrganization(org)}. Um relatório consolidado conta essa empresa uma vez só, pela primeira conexão da lista; remova a repetida se ela não for necessária.`;
  }

  remove(id: string): void {
    const list = this.all().filter((c) => c.id !== id);
    this.user.delete(keyProp(id));
    this.save(list);
  }
}
