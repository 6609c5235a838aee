/**
 * The sections of docs/operations.md that alarm descriptions point to, by heading. A CDK test
 * checks that each heading is in the runbook, so a renamed section cannot leave a dead link.
 */
export const RunbookSection = {
  deadLetters: 'A dead-letter queue has messages',
  functionErrors: 'A function fails',
  functionThrottles: 'A function is throttled',
  fanoutStuck: "A campaign's fan-out is stuck",
  streamIteratorAge: 'The table stream falls behind',
  apiServerErrors: 'The API answers 5xx',
  sendFailures: 'Sends fail',
  webhookDeliveryFailures: 'Webhook deliveries fail',
  platformThrottling: 'The platform throttles sends',
  numbersPaused: 'A number is paused',
} as const;

export type RunbookHeading = (typeof RunbookSection)[keyof typeof RunbookSection];

export const RUNBOOK_PATH = 'docs/operations.md';

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export const headingAnchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

export const runbookLink = (heading: RunbookHeading) => `${RUNBOOK_PATH}#${headingAnchor(heading)}`;
