/** Everything the server holds: data per organization, configuration, fault RNG, log. */
import { applyPatch, defaultConfig } from './config.js';
import { generateOrg, resolveSize, type OrgData } from './generate.js';
import { LateCommits } from './late-commits.js';
import { RequestLog } from './log.js';
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

  constructor(private readonly options: SandboxOptions) {
    this.seed = options.seed ?? 1;
    this.size = options.size ?? 'small';
    this.startupPatch = options.config ?? {};
    this.config = this.configFrom(this.startupPatch);
    this.faultRng = new Rng(this.seed ^ 0x5eed);
    resolveSize(this.size); // fail at start, not on first request
    if (options.eager ?? true) for (const def of ORG_DEFS) this.orgData(def);
  }

  private configFrom(patch: ConfigPatch): SandboxConfig {
    const c = applyPatch(defaultConfig(), patch);
    if (Array.isArray(c)) throw new Error(`invalid config: ${c.join('; ')}`);
    return c;
  }

  orgByKey(key: string | undefined): OrgDef | undefined {
    return key === undefined ? undefined : ORG_DEFS.find((o) => hasKey(o, key));
  }

  /** By name or by key. */
  orgByRef(ref: string): OrgDef | undefined {
    return ORG_DEFS.find((o) => o.name === ref || hasKey(o, ref));
  }

  /** Generated on first use; each organization has its own seeded stream, so order does not matter. */
  orgData(def: OrgDef): OrgData {
    let d = this.data.get(def.index);
    if (!d) {
      d = generateOrg(def, this.seed, resolveSize(this.size));
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
