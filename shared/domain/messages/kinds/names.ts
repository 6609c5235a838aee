/** The message kinds besides `template`: each is a request field, the `message_type`, and the platform's `type`. */
export const SESSION_KINDS = ['text', 'image', 'video', 'audio', 'document', 'sticker', 'location', 'interactive', 'reaction'] as const;
export type SessionKindName = (typeof SESSION_KINDS)[number];
