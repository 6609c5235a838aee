import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { campaignCounts } from '#shared/data/campaign-metrics';
import { messageCounts } from '#shared/data/message-counts';
import { countMessages } from '#shared/domain/outbox/counts';
import { useTestApi } from '../support/api';

const api = useTestApi();

/**
 * Stream records as Lambda hands them over: counting is given batches, and a batch may come again
 * (a retried invocation), or again from its first record with more records after it.
 */
let sequence = 1000;
function record(eventName: 'INSERT' | 'MODIFY', image: Record<string, unknown>, before?: Record<string, unknown>): DynamoDBRecord {
  sequence += 1;
  return {
    eventID: `event-${sequence}`,
    eventName,
    dynamodb: {
      SequenceNumber: String(sequence).padStart(21, '0'),
      NewImage: marshall(image) as never,
      ...(before && { OldImage: marshall(before) as never }),
    },
  };
}

const message = (ws: string, id: string, status: string, campaignId: string | null = null) => ({
  PK: `WS#${ws}#MSG#${id}`,
  SK: 'MESSAGE',
  id,
  workspace_id: ws,
  campaign_id: campaignId,
  status,
});
const created = (ws: string, id: string, campaignId: string | null = null) => record('INSERT', message(ws, id, 'queued', campaignId));
const moved = (ws: string, id: string, from: string, to: string, campaignId: string | null = null) =>
  record('MODIFY', message(ws, id, to, campaignId), message(ws, id, from, campaignId));

describe('message counts from the table stream', () => {
  it('counts each status move once however often its batch comes', async () => {
    const ws = await api.workspace();
    const batch = [
      created(ws.id, 'a'),
      created(ws.id, 'b'),
      moved(ws.id, 'a', 'queued', 'sent'),
      record('MODIFY', message(ws.id, 'b', 'queued'), message(ws.id, 'b', 'queued')),
    ];
    await countMessages(batch);
    await countMessages(batch);
    expect(await messageCounts(ws.id)).toMatchObject({ queued: 1, sent: 1, delivered: 0 });

    // The same batch from its first record, with more after it: only the new moves count.
    const longer = [...batch, moved(ws.id, 'b', 'queued', 'sent'), moved(ws.id, 'a', 'sent', 'delivered')];
    await countMessages(longer);
    await countMessages(longer);
    expect(await messageCounts(ws.id)).toMatchObject({ queued: 0, sent: 1, delivered: 1 });
  });

  it('keeps a campaign metrics sum equal to its total through moves split over many transactions', async () => {
    const ws = await api.workspace();
    // 150 campaigns and the workspace: more counter items than one transaction takes.
    const campaigns = Array.from({ length: 150 }, (_, i) => `c${i}`);
    const batch = campaigns.flatMap((c) => [created(ws.id, `${c}-m`, c), moved(ws.id, `${c}-m`, 'queued', 'failed', c)]);
    await countMessages(batch);
    await countMessages(batch);
    await countMessages(batch.slice(0, 120));
    expect(await messageCounts(ws.id)).toMatchObject({ queued: 0, failed: 150 });
    for (const c of ['c0', 'c75', 'c149']) {
      expect(await campaignCounts(ws.id, c)).toEqual({ total_messages: 1, pending: 0, sent: 0, delivered: 0, read: 0, failed: 1 });
    }
  });
});
