import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { indexes } from '#shared/data/table/table';

// No dynamodb:Scan: every access pattern is a key lookup or a Query (see shared/data/table/table.ts), except
// the erasure of a workspace (grantTableScan).
const readActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/**
 * Data-plane grants on the table and its named indexes. Unlike table.grantReadData(), which
 * grants `<table>/index/*`, the index ARNs come from shared/data/table/table.ts: no wildcard resource.
 * (Transactions need no extra action: IAM checks the per-item actions above.)
 */
export function grantTableData(table: ITableV2, grantee: IGrantable, mode: 'read' | 'readWrite'): void {
  const indexArns = Object.values(indexes).map((index) => `${table.tableArn}/index/${index.indexName}`);
  Grant.addToPrincipal({ grantee, actions: readActions, resourceArns: [table.tableArn, ...indexArns] });
  if (mode === 'readWrite') Grant.addToPrincipal({ grantee, actions: writeActions, resourceArns: [table.tableArn] });
}

/** dynamodb:Scan on the table alone (no index): only the erasure of a workspace, which finds every item of it (docs/operator.md, "Erasure"). */
export function grantTableScan(table: ITableV2, grantee: IGrantable): void {
  Grant.addToPrincipal({ grantee, actions: ['dynamodb:Scan'], resourceArns: [table.tableArn] });
}
