import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { perEndpoint, serviceClientConfig, withoutSdkLogger } from '#shared/aws/clients';
import { env } from '#shared/config';
import type { TableCommand, TableOperation } from '#shared/data/table/commands';
import { sendRepeatable } from '#shared/data/table/repeatable-writes';

type Json = Record<string, unknown>;

/** A call as an interceptor sees it: the SDK's name of its command (`GetItemCommand`) and its input in document shapes. */
export interface TableCall {
  commandName: string;
  input: Json;
}

/** Wraps every call of a client (the local stack's usage meter); `next` makes the call, with the input it is given. */
export type TableInterceptor = (call: TableCall, next: (input: Json) => Promise<Json>) => Promise<Json>;

/** The document client's command of each operation. */
const DOCUMENT_COMMANDS = {
  GetItem: GetCommand,
  PutItem: PutCommand,
  UpdateItem: UpdateCommand,
  DeleteItem: DeleteCommand,
  Query: QueryCommand,
  Scan: ScanCommand,
  BatchGetItem: BatchGetCommand,
  BatchWriteItem: BatchWriteCommand,
  TransactWriteItems: TransactWriteCommand,
} satisfies Record<TableOperation, unknown>;

/**
 * The table's client: commands in document shapes (shared/data/table/commands.ts), sent through
 * the SDK's document client (`@aws-sdk/lib-dynamodb`, undefined values left out), with the
 * service's retries and time-outs (shared/aws/clients.ts). Puts and updates are made safe to
 * repeat (repeatable-writes.ts); a transaction keeps the ClientRequestToken the SDK fills in across
 * its retries. Errors are the SDK's: by name, a refused condition's `Item` marshalled.
 */
export class TableClient {
  private readonly interceptors: TableInterceptor[] = [];
  private readonly documents: DynamoDBDocumentClient;

  constructor(localEndpoint: string | undefined) {
    const dynamodb = withoutSdkLogger(new DynamoDBClient(serviceClientConfig(localEndpoint)));
    this.documents = DynamoDBDocumentClient.from(dynamodb, { marshallOptions: { removeUndefinedValues: true } });
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

  /** Closes its kept-alive connections (a test's client of a scripted or proxied endpoint). */
  destroy(): void {
    this.documents.destroy();
  }

  private execute(operation: TableOperation, input: Json): Promise<Json> {
    if (operation === 'PutItem' || operation === 'UpdateItem') return sendRepeatable(operation, input, (tokenized) => this.call(operation, tokenized as Json));
    return this.call(operation, input);
  }

  private call(operation: TableOperation, input: Json): Promise<Json> {
    const Command = DOCUMENT_COMMANDS[operation] as unknown as new (input: Json) => GetCommand;
    return this.documents.send(new Command(input));
  }
}

/** The process's table client (shared/aws/clients.ts, `perEndpoint`). */
export const db = perEndpoint(
  () => env.dynamodbEndpoint,
  (endpoint) => new TableClient(endpoint),
);

export const tableName = (): string => env.tableName;
