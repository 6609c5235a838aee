/**
 * Every response schema by the name descriptions refer to it with (shared/schemas/operations), which
 * is also its component name in the API document (`contact` is `Contact`). Only the generator and
 * the tests load these: handlers build their answers in shared/domain, and the end-to-end tests
 * check real answers against the document.
 */
export { deletion } from '#shared/schemas/responses/common';
export { cursorPagination, errorEnvelope, pagination } from '#shared/schemas/responses/envelope';
export * from '#shared/schemas/responses/calls';
export * from '#shared/schemas/responses/campaigns';
export * from '#shared/schemas/responses/chat-groups';
export * from '#shared/schemas/responses/contacts';
export * from '#shared/schemas/responses/groups';
export * from '#shared/schemas/responses/keys';
export * from '#shared/schemas/responses/messages';
export * from '#shared/schemas/responses/numbers';
export * from '#shared/schemas/responses/service';
export * from '#shared/schemas/responses/subscriber-webhooks';
export * from '#shared/schemas/responses/templates';
export * from '#shared/schemas/responses/usage';
export * from '#shared/schemas/responses/operator';
