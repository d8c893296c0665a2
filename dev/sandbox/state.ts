/** Everything the server holds: data per organization, configuration, fault RNG, log. */
import { applyPatch, defaultConfig } from './config.js';
import { generateOrg, resolveSize, type OrgData } from './generate.js';
import { LateCommits } from './late-commits.js';
import { RequestLog } from './log.js';
import { officeDefs, officeOptions, officeSize } from './office.js';
import { hasKey, ORG_DEFS, type OrgDef } from './orgs.js';
import { Rng } from './rng.js';
import type { ConfigPatch, ResetOptions, SandboxConfig, SandboxOptions, SandboxSize } from './types.js';

export class SandboxState {
  seed: number;
  size: SandboxSize;
  config: SandboxConfig;
  faultRng: Rng;
  readonly log = new RequestLog();
  readonly lateCommits = new LateCommits();
  private data = new Map<number, OrgData>();
  private startupPatch: ConfigPatch;
  /** The demo organizations, then the office's companies (generated on first use whatever `eager` says). */
  readonly defs: readonly OrgDef[];
  private readonly byKey = new Map<string, OrgDef>();

  constructor(private readonly options: SandboxOptions) {
    this.seed = options.seed ?? 1;
    this.size = options.size ?? 'small';
    this.startupPatch = options.config ?? {};
    this.config = this.configFrom(this.startupPatch);
    this.faultRng = new Rng(this.seed ^ 0x5eed);
    resolveSize(this.size); // fail at start, not on first request
    this.defs = [...ORG_DEFS, ...officeDefs(officeOptions(options.office))];
    for (const def of this.defs) for (const key of [def.apiKey, ...(def.otherKeys ?? [])]) this.byKey.set(key, def);
    if (options.eager ?? true) for (const def of ORG_DEFS) this.orgData(def);
  }

  private configFrom(patch: ConfigPatch): SandboxConfig {
    const c = applyPatch(defaultConfig(), patch);
    if (Array.isArray(c)) throw new Error(`invalid config: ${c.join('; ')}`);
    return c;
  }

  orgByKey(key: string | undefined): OrgDef | undefined {
    return key === undefined ? undefined : this.byKey.get(key);
  }

  /** By name or by key. */
  orgByRef(ref: string): OrgDef | undefined {
    return this.defs.find((o) => o.name === ref || hasKey(o, ref));
  }

  /** Generated on first use; each organization has its own seeded stream, so order does not matter. */
  orgData(def: OrgDef): OrgData {
    let d = this.data.get(def.index);
    if (!d) {
      d = generateOrg(def, this.seed, def.office ? officeSize(officeOptions(this.options.office)) : resolveSize(this.size));
      this.data.set(def.index, d);
    }
    return d;
  }

  configure(patch: ConfigPatch): SandboxConfig | string[] {
    const c = applyPatch(this.config, patch);
    if (!Array.isArray(c)) this.config = c;
    return c;
  }

  reset(opts: ResetOptions): void {
    if (opts.size !== undefined) resolveSize(opts.size);
    this.seed = opts.seed ?? this.options.seed ?? 1;
    this.size = opts.size ?? this.options.size ?? 'small';
    this.config = this.configFrom(opts.config ?? this.startupPatch);
    this.faultRng = new Rng(this.seed ^ 0x5eed);
    this.lateCommits.clear();
    this.data.clear();
    this.log.reset();
    if (this.options.eager ?? true) for (const def of ORG_DEFS) this.orgData(def);
  }
}
