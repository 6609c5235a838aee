import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { EventBridgeEvent } from 'aws-lambda';
import { localWiring } from '#local/triggers';
import { meterEvents } from '#local/usage-meter';
import { loadHandler } from '#local/handlers';
import { lambdaContext } from '#local/lambda-context';
import { listenOn } from '#local/ports';

interface Entry {
  Source?: string;
  DetailType?: string;
  Detail?: string;
  EventBusName?: string;
  Time?: number | string;
}

/** EventBridge retries a failed target with back-off; locally a few quick tries. */
const RETRY_DELAYS_MS = [200, 1000, 3000];

/**
 * EventBridge, locally: the PutEvents API (AWS JSON 1.1) for the SDK client, applying the
 * `busRule` triggers of shared/service/operations.ts to each event and invoking the matching handlers
 * asynchronously with a real EventBridgeEvent, retried a few times on failure.
 */
export async function startLocalEventBus(port: number, source: string) {
  const deliver = async (event: EventBridgeEvent<string, unknown>) => {
    for (const operation of localWiring.busRules) {
      const { detailTypes } = operation.trigger;
      if (event.source !== source || !(detailTypes.includes('*') || detailTypes.includes(event['detail-type']))) continue;
      const handler = await loadHandler(operation);
      for (let attempt = 0; ; attempt++) {
        try {
          await handler(event, lambdaContext(operation.name, operation.timeoutSeconds));
          break;
        } catch (error) {
          if (attempt >= RETRY_DELAYS_MS.length) {
            console.error(`${operation.name} failed an event for good`, error);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
        }
      }
    }
  };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const target = request.headers['x-amz-target'];
      if (target !== 'AWSEvents.PutEvents') {
        response.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.1' });
        return response.end(JSON.stringify({ __type: 'UnknownOperationException', message: `Not supported locally: ${target}` }));
      }
      const entries = ((JSON.parse(body || '{}') as { Entries?: Entry[] }).Entries ?? []).map((entry) => ({ entry, id: randomUUID() }));
      meterEvents(entries.length);
      response.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify({ FailedEntryCount: 0, Entries: entries.map(({ id }) => ({ EventId: id })) }));
      for (const { entry, id } of entries) {
        void deliver({
          version: '0',
          id,
          'detail-type': entry.DetailType ?? '',
          source: entry.Source ?? '',
          account: '000000000000',
          time: new Date(typeof entry.Time === 'number' ? entry.Time * 1000 : (entry.Time ?? Date.now())).toISOString(),
          region: 'us-east-1',
          resources: [],
          detail: JSON.parse(entry.Detail ?? '{}'),
        });
      }
    });
  });
  const listening = await listenOn(server, port);
  return { endpoint: `http://127.0.0.1:${listening}`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
