import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  ScanCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';

/** The DynamoDB operations the service calls. */
export type TableOperation = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'Scan' | 'BatchGetItem' | 'BatchWriteItem' | 'TransactWriteItems';

/**
 * The document client's inputs without the legacy parameters (`Expected`, `AttributeUpdates`,
 * `KeyConditions`, `QueryFilter`, `ScanFilter`), which the service never uses: expressions only
 * (the write tokens of repeatable-writes.ts are added to expressions).
 */
type Legacy = 'Expected' | 'AttributeUpdates' | 'KeyConditions' | 'QueryFilter' | 'ScanFilter' | 'ConditionalOperator';
type Current<Input> = Omit<Input, Legacy>;

/**
 * One call of the table client (shared/data/table/client.ts), in the document client's shapes:
 * items as plain values. The input and output types are the SDK's document client's, and the
 * client sends each through the document client's command of the same name; the operation is
 * named here so that interceptors and traces read it without the SDK's classes.
 */
export abstract class TableCommand<Input extends object, Output extends object> {
  abstract readonly operation: TableOperation;
  /** The output's type, for `send` to return; never set. */
  declare readonly output?: Output;
  constructor(readonly input: Input) {}
}

export class GetCommand extends TableCommand<GetCommandInput, GetCommandOutput> {
  readonly operation = 'GetItem';
}

export class PutCommand extends TableCommand<Current<PutCommandInput>, PutCommandOutput> {
  readonly operation = 'PutItem';
}

export class UpdateCommand extends TableCommand<Current<UpdateCommandInput>, UpdateCommandOutput> {
  readonly operation = 'UpdateItem';
}

export class DeleteCommand extends TableCommand<Current<DeleteCommandInput>, DeleteCommandOutput> {
  readonly operation = 'DeleteItem';
}

export class QueryCommand extends TableCommand<Current<QueryCommandInput>, QueryCommandOutput> {
  readonly operation = 'Query';
}

export class ScanCommand extends TableCommand<Current<ScanCommandInput>, ScanCommandOutput> {
  readonly operation = 'Scan';
}

export class BatchGetCommand extends TableCommand<BatchGetCommandInput, BatchGetCommandOutput> {
  readonly operation = 'BatchGetItem';
}

export class BatchWriteCommand extends TableCommand<BatchWriteCommandInput, BatchWriteCommandOutput> {
  readonly operation = 'BatchWriteItem';
}

export class TransactWriteCommand extends TableCommand<TransactWriteCommandInput, TransactWriteCommandOutput> {
  readonly operation = 'TransactWriteItems';
}

export type { BatchGetCommandOutput, QueryCommandInput, TransactWriteCommandInput, UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
