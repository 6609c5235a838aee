import { randomBytes } from 'node:crypto';

/**
 * The local stack's operator key (contract §19): 256 random bits, with a prefix of its own so it
 * is never taken for a workspace's `sk_live_` key. In AWS there is none: the operator signs with
 * AWS credentials instead.
 */
export const newOperatorKey = (): string => `sk_operator_${randomBytes(32).toString('base64url')}`;
