import type { LocalDynamo } from '#local/dynamodb';
import { unexpectedFailures } from '#local/iam/usage';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamo?: LocalDynamo }).__dynamo?.stop();
  // A refusal or a missing setting some code caught and went on from still fails the run: deployed, it would fail there.
  const failures = process.env.LOCAL_IAM_RUN ? unexpectedFailures(process.env.LOCAL_IAM_RUN) : [];
  if (failures.length) {
    throw new Error(
      `The functions did what would fail once deployed (local/iam; \`npm run iam-report\` has the details):\n${failures.map((f) => `  ${f}`).join('\n')}`,
    );
  }
}
