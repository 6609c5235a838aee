import type { KindFields, Message } from '#shared/records/message';

/** What a session message keeps of its request: the `content` clients read and the kind's own field. */
export type AcceptedKind = Pick<Message, 'content'> & KindFields;

/**
 * One kind of session message (contract §13). Its request schema is in shared/schemas/messages.ts;
 * the window, idempotency, the send job and statuses are the same for every kind.
 */
export interface SessionKind<Input> {
  /** The stored part of an accepted request; may look up the messages it refers to (404 when missing). */
  accept(workspaceId: string, input: Input): AcceptedKind | Promise<AcceptedKind>;
  /** The platform's object for the message's `type` (its request body's `[type]` field), built by shared/platform/payloads/<kind>.ts from the message's fields. */
  platformObject(message: Message): object;
}
