/**
 * Settings every suite runs with, before its own (a suite may set its own at its top):
 * a workspace's first campaign waits this long for lists under way before its fan-out writes
 * (shared/data/message-list-shards.ts). Deployed it is 20 s, longer than a list request may run;
 * a test's lists answer in milliseconds, and 20 s per first campaign would slow every campaign suite.
 */
process.env.LIST_WIDENING_DELAY_MS ??= '300';
