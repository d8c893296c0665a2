/**
 * A problem the person using the add-on can put right (a filter, a form, a
 * sheet, a connection, a busy document): its message, in Portuguese, says
 * what to do, and a sidebar shows it as it is. Anything else that is thrown
 * is a bug and reaches the sidebar as a failure, never dressed as advice.
 */
export class UserError extends Error {
  override name = 'UserError';

  constructor(
    message: string,
    /** The form field at fault, when there is one: the sidebar marks it beside the message. */
    readonly field?: string,
  ) {
    super(message);
  }
}
