import { createHmac } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { TEST_PLATFORM } from './api';

/** Posts a platform webhook body to our endpoint, signed as the platform signs it. */
export async function postPlatformWebhook(baseUrl: string, payload: unknown): Promise<number> {
  const raw = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', TEST_PLATFORM.app_secret).update(raw).digest('hex')}`;
  const reply = await fetch(`${baseUrl}/webhooks/whatsapp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature },
    body: raw,
  });
  return reply.status;
}

/** A `messages` webhook around one change value, as the platform posts it (entry id = the business account). */
export const messagesWebhook = (wabaId: string, phoneNumberId: string, value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: wabaId,
      changes: [
        {
          value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId }, ...value },
          field: 'messages',
        },
      ],
    },
  ],
});

/** One customer message in the platform's shape, with the sender's contact entry. */
export const customerMessage = (wabaId: string, phoneNumberId: string, from: string, message: Record<string, unknown>, name = 'Sheena Nelson') =>
  messagesWebhook(wabaId, phoneNumberId, {
    contacts: [{ profile: { name }, wa_id: from }],
    messages: [{ from, id: `wamid.${Math.random().toString(36).slice(2)}${Date.now()}`, timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
  });

/** One SQS record holding a platform webhook, as the inbound queue hands it to its worker (a test that calls the worker itself). */
export const inboundQueueEvent = (payload: unknown): SQSEvent => ({
  Records: [
    {
      messageId: 'replay',
      receiptHandle: 'replay',
      body: JSON.stringify(payload),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'local', ApproximateFirstReceiveTimestamp: String(Date.now()) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:inbound',
      awsRegion: 'us-east-1',
    },
  ],
});
