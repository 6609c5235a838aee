/** A text message's object: links are not previewed. */
export const textObject = (body: string) => ({ body, preview_url: false });
