/** Logger and console: recorded per execution, never printed (the CLI prints them). */
import { format } from 'node:util';
import type { Execution } from './execution';
import { GasObject } from './instrument';

export interface LogEntry {
  execution: number;
  source: 'Logger' | 'console';
  level: 'log' | 'info' | 'warn' | 'error';
  message: string;
  at: number;
}

export class LoggerImpl extends GasObject implements Pick<GoogleAppsScript.Base.Logger, 'clear' | 'getLog' | 'log'> {
  readonly gasName = 'Logger';
  private lines: string[] = [];
  constructor(
    private readonly sink: LogEntry[],
    private readonly exec: Execution,
  ) {
    super();
  }
  log(data: any, ...values: any[]): GoogleAppsScript.Base.Logger {
    const message = values.length ? format(String(data), ...values) : typeof data === 'string' ? data : format(data);
    this.lines.push(message);
    this.sink.push({ execution: this.exec.id, source: 'Logger', level: 'log', message, at: this.exec.clock.now() });
    return this as unknown as GoogleAppsScript.Base.Logger;
  }
  getLog(): string {
    return this.lines.map((l) => `${l}\n`).join('');
  }
  clear(): void {
    this.lines = [];
  }
}

export class ConsoleImpl extends GasObject {
  readonly gasName = 'console';
  private readonly timers = new Map<string, number>();
  constructor(
    private readonly sink: LogEntry[],
    private readonly exec: Execution,
  ) {
    super();
  }
  private write(level: LogEntry['level'], args: unknown[]): void {
    this.sink.push({ execution: this.exec.id, source: 'console', level, message: format(...args), at: this.exec.clock.now() });
  }
  log(...args: unknown[]): void {
    this.write('log', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  time(label: string): void {
    this.timers.set(label, this.exec.clock.now());
  }
  timeEnd(label: string): void {
    const start = this.timers.get(label);
    if (start !== undefined) this.write('log', [`${label}: ${this.exec.clock.now() - start}ms`]);
  }
}
