import type { LocalDynamo } from '#local/dynamodb';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamo?: LocalDynamo }).__dynamo?.stop();
}
