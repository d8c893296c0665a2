/**
 * LockService across executions. Executions here run one at a time, so
 * overlap is modelled two ways: a lock held by a simulated other execution
 * until a virtual time (LockTable.holdForOther), or a real second run started
 * from inside the first one (RunOptions.onServiceCall) while the first holds
 * the lock. Waiting advances the waiter's virtual clock.
 */
import type { Execution } from './execution';
import { GasObject } from './instrument';

type GLock = GoogleAppsScript.Lock.Lock;

interface Holder {
  /** Execution id, or a label for a simulated execution. */
  owner: number | string;
  /** Simulated holders let go at this virtual time; real executions when they end. */
  releaseAt?: number;
}

export const LOCK_TIMEOUT_MESSAGE = 'Lock timeout: another process was holding the lock for too long.';

export class LockTable {
  private readonly held = new Map<string, Holder>();

  holder(key: string): Holder | undefined {
    return this.held.get(key);
  }

  holdForOther(key: string, releaseAt: number, label = 'simulated execution'): void {
    this.held.set(key, { owner: label, releaseAt });
  }

  set(key: string, holder: Holder): void {
    this.held.set(key, holder);
  }

  release(key: string, owner: number): void {
    if (this.held.get(key)?.owner === owner) this.held.delete(key);
  }

  /** Apps Script drops an execution's locks when it ends. */
  releaseAll(owner: number): void {
    for (const [key, h] of this.held) if (h.owner === owner) this.held.delete(key);
  }

  keys(): string[] {
    return [...this.held.keys()];
  }
}

export class LockImpl extends GasObject implements GLock {
  readonly gasName = 'Lock';
  constructor(
    private readonly table: LockTable,
    private readonly key: string,
    private readonly exec: Execution,
  ) {
    super();
  }

  private acquire(timeoutMs: number): boolean {
    const now = this.exec.clock.now();
    const h = this.table.holder(this.key);
    if (!h || h.owner === this.exec.id || (h.releaseAt !== undefined && h.releaseAt <= now)) {
      this.table.set(this.key, { owner: this.exec.id });
      return true;
    }
    if (h.releaseAt !== undefined && h.releaseAt <= now + timeoutMs) {
      this.exec.clock.advance(h.releaseAt - now);
      this.table.set(this.key, { owner: this.exec.id });
      return true;
    }
    // A real execution holding it is paused under us and cannot release it before we give up.
    this.exec.clock.advance(timeoutMs);
    return false;
  }

  tryLock(timeoutInMillis: number): boolean {
    return this.acquire(Math.max(0, timeoutInMillis));
  }

  waitLock(timeoutInMillis: number): void {
    if (!this.acquire(Math.max(0, timeoutInMillis))) throw this.exec.error(LOCK_TIMEOUT_MESSAGE);
  }

  hasLock(): boolean {
    return this.table.holder(this.key)?.owner === this.exec.id;
  }

  releaseLock(): void {
    this.table.release(this.key, this.exec.id);
  }
}

export const lockKey = {
  script: (): string => 'script',
  user: (user: string): string => `user:${user}`,
  document: (documentId: string): string => `document:${documentId}`,
};

export class LockServiceImpl extends GasObject implements GoogleAppsScript.Lock.LockService {
  readonly gasName = 'LockService';
  constructor(
    private readonly table: LockTable,
    private readonly exec: Execution,
    private readonly documentId: string | null,
  ) {
    super();
  }
  getScriptLock(): GLock {
    return new LockImpl(this.table, lockKey.script(), this.exec);
  }
  getUserLock(): GLock {
    return new LockImpl(this.table, lockKey.user(this.exec.user), this.exec);
  }
  getDocumentLock(): GLock {
    // Typed non-null, but null outside a document.
    return (this.documentId === null ? null : new LockImpl(this.table, lockKey.document(this.documentId), this.exec)) as GLock;
  }
}
