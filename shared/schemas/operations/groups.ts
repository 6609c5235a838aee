import { createGroupBody, groupMembersBody, listGroupMembersQuery, listGroupsQuery } from '#shared/schemas/groups';
import { idParams } from '#shared/schemas/common';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const CreateGroup = {
  tag: 'Groups',
  summary: 'Create a group',
  auth: 'apiKey',
  request: { body: createGroupBody },
  bodyExample: { name: 'Launch list', description: 'Customers who asked to hear first' },
  success: [{ status: 201, data: 'group' }],
} satisfies ApiKeyOperation;

export const ListGroups = {
  tag: 'Groups',
  summary: 'List groups, newest first',
  auth: 'apiKey',
  request: { query: listGroupsQuery },
  success: [{ status: 200, data: 'group', list: 'pages' }],
} satisfies ApiKeyOperation;

export const GetGroup = {
  tag: 'Groups',
  summary: 'Get a group',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'group' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const DeleteGroup = {
  tag: 'Groups',
  summary: 'Delete a group',
  description: 'Its contacts stay.',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'deletion' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const ListGroupMembers = {
  tag: 'Groups',
  summary: "List a group's contacts, newest contact first",
  auth: 'apiKey',
  request: { params: idParams, query: listGroupMembersQuery },
  success: [{ status: 200, data: 'contact', list: 'pages' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const AddGroupMembers = {
  tag: 'Groups',
  summary: 'Add contacts to a group',
  description: 'Ids of no contact are listed in `not_found_ids`; contacts already in the group are left as they are.',
  auth: 'apiKey',
  request: { params: idParams, body: groupMembersBody },
  success: [{ status: 200, data: 'groupMembersAdded' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const RemoveGroupMembers = {
  tag: 'Groups',
  summary: 'Remove contacts from a group',
  auth: 'apiKey',
  request: { params: idParams, body: groupMembersBody },
  success: [{ status: 200, data: 'groupMembersRemoved' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;
