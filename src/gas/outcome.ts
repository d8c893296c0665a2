/**
 * How a sidebar call answers a problem the user can put right: a refusal with a
 * message for the page, because a thrown error reaches google.script.run's
 * failure handler as a bare "Exception: …". Only a UserError is such a problem;
 * anything else is a bug and still throws, never dressed as advice.
 */
import { UserError } from '../api/user-error';

export type Outcome<T> = { ok: true; value: T } | Refusal;

export interface Refusal {
  ok: false;
  message: string;
}

/** A form's refusal: names the field at fault when there is one, so the sidebar can mark it beside the message. */
export interface FieldRefusal extends Refusal {
  field?: string;
}

export type FormOutcome<T> = { ok: true; value: T } | FieldRefusal;

/** The refusal a UserError makes, with the field it names; anything else is thrown on. */
function fieldRefusal(err: unknown): FieldRefusal {
  if (!(err instanceof UserError)) throw err;
  return err.field === undefined ? { ok: false, message: err.message } : { ok: false, field: err.field, message: err.message };
}

/** Runs a sidebar call's work: its value, or the refusal of a UserError it threw. */
export function outcome<T>(work: () => T): Outcome<T> {
  try {
    return { ok: true, value: work() };
  } catch (err) {
    return { ok: false, message: fieldRefusal(err).message };
  }
}

/**
 * The form variant: the work answers as its call does (its own checks may
 * refuse beside a field), and a UserError it throws becomes a refusal naming
 * the error's field.
 */
export function formOutcome<R>(work: () => R): R | FieldRefusal {
  try {
    return work();
  } catch (err) {
    return fieldRefusal(err);
  }
}
