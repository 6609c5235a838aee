import type { SessionKind } from '#shared/domain/messages/kinds/kind';
import { referencedMessage } from '#shared/domain/messages/references';
import { reactionObject } from '#shared/platform/payloads/reaction';

export interface ReactionInput {
  message_id: string;
  emoji: string;
}

/** An emoji on a message of this workspace; the empty emoji takes it back. */
export const reaction: SessionKind<ReactionInput> = {
  accept: async (ws, input) => {
    const target = await referencedMessage(ws, input.message_id, 'reaction.message_id');
    return { content: input.emoji, reaction: { emoji: input.emoji, ...target } };
  },
  platformObject: ({ reaction: given }) => reactionObject(given!),
};
