/** MailApp: mail is recorded, never sent; the daily quota is counted per virtual day. */
import type { Execution } from './execution';
import { GasObject } from './instrument';

export interface SentMail {
  to: string;
  subject: string;
  body: string;
  htmlBody?: string;
  at: number;
  user: string;
}

export interface MailQuota {
  remaining(): number;
  spend(recipients: number): void;
}

export class MailAppImpl extends GasObject implements Pick<GoogleAppsScript.Mail.MailApp, 'getRemainingDailyQuota' | 'sendEmail'> {
  readonly gasName = 'MailApp';
  constructor(
    private readonly outbox: SentMail[],
    private readonly quota: MailQuota,
    private readonly exec: Execution,
  ) {
    super();
  }
  getRemainingDailyQuota(): number {
    return this.quota.remaining();
  }
  sendEmail(...args: any[]): void {
    let mail: Omit<SentMail, 'at' | 'user'>;
    if (args.length === 1 && typeof args[0] === 'object') {
      const m = args[0] as { to?: string; subject?: string; body?: string; htmlBody?: string };
      mail = { to: String(m.to ?? ''), subject: String(m.subject ?? ''), body: String(m.body ?? ''), htmlBody: m.htmlBody };
    } else if (args.length === 4 && typeof args[3] === 'string') {
      mail = { to: String(args[0]), subject: String(args[2]), body: String(args[3]) };
    } else {
      mail = { to: String(args[0]), subject: String(args[1]), body: String(args[2] ?? ''), htmlBody: args[3]?.htmlBody };
    }
    if (!mail.to) throw this.exec.error('Failed to send email: no recipient');
    const recipients = mail.to.split(',').filter((s) => s.trim()).length;
    if (this.quota.remaining() < recipients) throw this.exec.error('Service invoked too many times for one day: email.');
    this.quota.spend(recipients);
    this.outbox.push({ ...mail, at: this.exec.clock.now(), user: this.exec.user });
  }
}
