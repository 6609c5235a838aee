import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { operations } from '#shared/service/operations';
import { localRunners, operationsWith, type TriggerType } from '#local/triggers';

const root = resolve(__dirname, '../..');

describe('local trigger table', () => {
  it('names a local runner for every trigger type the operation list uses', () => {
    for (const { trigger } of operations) expect(localRunners).toHaveProperty(trigger.type);
  });

  it('each runner selects the operations of the trigger types it is named for', () => {
    for (const [type, runner] of Object.entries(localRunners)) {
      expect(readFileSync(resolve(root, runner), 'utf8')).toContain(`operationsWith('${type}')`);
    }
  });

  it('selects every operation exactly once across the trigger types', () => {
    const selected = (Object.keys(localRunners) as TriggerType[]).flatMap((type) => operationsWith(type).map((op) => op.name));
    expect(selected.sort()).toEqual(operations.map((op) => op.name).sort());
  });
});
