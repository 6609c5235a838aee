/** Contacts and groups: whom messages and campaigns go to. */
import { http, type Operation } from '#shared/service/operation';

export const audienceOperations: Operation[] = [
  { name: 'UpsertContact', handler: 'functions/contacts/upsert.ts', trigger: http('POST', '/api/v1/contacts'), access: { table: 'readWrite' } },
  { name: 'ListContacts', handler: 'functions/contacts/list.ts', trigger: http('GET', '/api/v1/contacts'), access: { table: 'readWrite' } },
  {
    name: 'ImportContacts',
    handler: 'functions/contacts/bulk.ts',
    trigger: http('POST', '/api/v1/contacts/bulk'),
    access: { table: 'readWrite' },
    timeoutSeconds: 29,
  },
  { name: 'GetContact', handler: 'functions/contacts/get.ts', trigger: http('GET', '/api/v1/contacts/{id}'), access: { table: 'readWrite' } },
  { name: 'UpdateContact', handler: 'functions/contacts/update.ts', trigger: http('PATCH', '/api/v1/contacts/{id}'), access: { table: 'readWrite' } },
  { name: 'DeleteContact', handler: 'functions/contacts/delete.ts', trigger: http('DELETE', '/api/v1/contacts/{id}'), access: { table: 'readWrite' } },

  { name: 'CreateGroup', handler: 'functions/groups/create.ts', trigger: http('POST', '/api/v1/groups'), access: { table: 'readWrite' } },
  { name: 'ListGroups', handler: 'functions/groups/list.ts', trigger: http('GET', '/api/v1/groups'), access: { table: 'readWrite' } },
  { name: 'GetGroup', handler: 'functions/groups/get.ts', trigger: http('GET', '/api/v1/groups/{id}'), access: { table: 'readWrite' } },
  {
    name: 'DeleteGroup',
    handler: 'functions/groups/delete.ts',
    trigger: http('DELETE', '/api/v1/groups/{id}'),
    access: { table: 'readWrite' },
    timeoutSeconds: 29,
  },
  {
    name: 'ListGroupMembers',
    handler: 'functions/groups/list-members.ts',
    trigger: http('GET', '/api/v1/groups/{id}/contacts'),
    access: { table: 'readWrite' },
  },
  {
    name: 'AddGroupMembers',
    handler: 'functions/groups/add-members.ts',
    trigger: http('POST', '/api/v1/groups/{id}/contacts'),
    access: { table: 'readWrite' },
    timeoutSeconds: 29,
  },
  {
    name: 'RemoveGroupMembers',
    handler: 'functions/groups/remove-members.ts',
    trigger: http('DELETE', '/api/v1/groups/{id}/contacts'),
    access: { table: 'readWrite' },
    timeoutSeconds: 29,
  },
];
