/** A reaction's object: the platform id of the message reacted to, and the emoji (empty: the reaction taken back). */
export const reactionObject = (reaction: { provider_message_id: string; emoji: string }) => ({
  message_id: reaction.provider_message_id,
  emoji: reaction.emoji,
});
