/** Session: who runs the execution, and the script's time zone (from appsscript.json). */
import type { Execution } from './execution';
import { GasObject } from './instrument';

class UserImpl extends GasObject implements Pick<GoogleAppsScript.Base.User, 'getEmail'> {
  readonly gasName = 'User';
  constructor(private readonly email: string) {
    super();
  }
  getEmail(): string {
    return this.email;
  }
}

export class SessionImpl
  extends GasObject
  implements
    Pick<GoogleAppsScript.Base.Session, 'getActiveUser' | 'getActiveUserLocale' | 'getEffectiveUser' | 'getScriptTimeZone' | 'getTemporaryActiveUserKey'>
{
  readonly gasName = 'Session';
  constructor(
    private readonly exec: Execution,
    private readonly scriptTimeZone: string,
    private readonly userLocale: string,
  ) {
    super();
  }
  getActiveUser(): GoogleAppsScript.Base.User {
    return new UserImpl(this.exec.user) as unknown as GoogleAppsScript.Base.User;
  }
  getEffectiveUser(): GoogleAppsScript.Base.User {
    return new UserImpl(this.exec.user) as unknown as GoogleAppsScript.Base.User;
  }
  getActiveUserLocale(): string {
    return this.userLocale;
  }
  getScriptTimeZone(): string {
    return this.scriptTimeZone;
  }
  getTemporaryActiveUserKey(): string {
    return Buffer.from(this.exec.user).toString('base64url');
  }
}
