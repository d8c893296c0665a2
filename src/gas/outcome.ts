/**
 * How a sidebar call answers a problem the user can put right: a refusal with a
 * message for the page, because a thrown error reaches google.script.run's
 * failure handler as a bare "Exception: …". Bugs still throw.
 */
export type Outcome<T> = { ok: true; value: T } | Refusal;

export interface Refusal {
  ok: false;
  message: string;
}

/** Names the form field at fault, so the sidebar can mark it beside the message. */
export interface FieldRefusal extends Refusal {
  field: string;
}

export type FormOutcome<T> = { ok: true; value: T } | FieldRefusal;
