import { randomUUID } from 'node:crypto';
import { env } from '#shared/config';
import type { TableCommand, TableOperation } from '#shared/data/table/commands';
import { base64AsBinary, binaryAsBase64, marshallInput, mayHoldBinary, unmarshallOutput } from '#shared/data/table/document-codec';
import { AwsJsonClient, perEndpoint, type AwsJsonService } from '#shared/aws/json-protocol';
import { sendRepeatable } from '#shared/data/table/repeatable-writes';

type Json = Record<string, unknown>;

/** DynamoDB's JSON protocol, its answers as sent (the local stack's table set-up reads it so). */
export const DYNAMODB_PROTOCOL = { signingName: 'dynamodb', targetPrefix: 'DynamoDB_20120810', jsonVersion: '1.0', serviceId: 'DynamoDB' } as const;

/** The same, with binary values written and read as the table's items hold them. */
const DYNAMODB: AwsJsonService = {
  ...DYNAMODB_PROTOCOL,
  replacer: binaryAsBase64,
  reviver: base64AsBinary,
  mayNeedReviver: mayHoldBinary,
};

/** A call as an interceptor sees it: the SDK's name of its command (`GetItemCommand`) and its input in document shapes. */
export interface TableCall {
  commandName: string;
  input: Json;
}

/** Wraps every call of a client (the local stack's usage meter); `next` makes the call, with the input it is given. */
export type TableInterceptor = (call: TableCall, next: (input: Json) => Promise<Json>) => Promise<Json>;

/**
 * The table's client: commands in document shapes (shared/data/table/commands.ts), marshalled,
 * sent over DynamoDB's JSON protocol (shared/aws/json-protocol.ts) and answered in document shapes. Puts
 * and updates are made safe to repeat (repeatable-writes.ts); a transaction keeps one
 * ClientRequestToken across its retries, as the SDK gives it.
 */
export class TableClient {
  private readonly interceptors: TableInterceptor[] = [];
  private readonly http: AwsJsonClient;

  constructor(localEndpoint: string | undefined) {
    this.http = new AwsJsonClient(DYNAMODB, localEndpoint);
  }

  intercept(interceptor: TableInterceptor): void {
    this.interceptors.push(interceptor);
  }

  send<Output extends object>(command: TableCommand<object, Output>): Promise<Output> {
    const { operation } = command;
    const call = (input: Json, index: number): Promise<Json> => {
      const interceptor = this.interceptors[index];
      if (!interceptor) return this.execute(operation, input);
      return interceptor({ commandName: `${operation}Command`, input }, (next) => call(next, index + 1));
    };
    return call(command.input as Json, 0) as Promise<Output>;
  }

  private execute(operation: TableOperation, input: Json): Promise<Json> {
    if (operation === 'PutItem' || operation === 'UpdateItem') return sendRepeatable(operation, input, (tokenized) => this.call(operation, tokenized as Json));
    if (operation === 'TransactWriteItems' && !input.ClientRequestToken) return this.call(operation, { ...input, ClientRequestToken: randomUUID() });
    return this.call(operation, input);
  }

  private async call(operation: TableOperation, input: Json): Promise<Json> {
    const body = await this.http.call(operation, marshallInput(operation, input));
    return { ...unmarshallOutput(operation, body), $metadata: {} };
  }
}

/** The process's table client (shared/aws/json-protocol.ts, `perEndpoint`). */
export const db = perEndpoint(
  () => env.dynamodbEndpoint,
  (endpoint) => new TableClient(endpoint),
);

export const tableName = (): string => env.tableName;
