import { operations } from '#shared/service/operations';
import { localWiring, wireLocally } from '#local/triggers';

describe('local trigger table', () => {
  it('has a local entry for every trigger type the operation list uses', () => {
    const used = [...new Set(operations.map((operation) => operation.trigger.type))];
    expect(Object.keys(wireLocally)).toEqual(expect.arrayContaining(used));
  });

  it('hands every operation to exactly one part of the local stack', () => {
    const wired = Object.values(localWiring)
      .flat()
      .map((operation) => operation.name);
    expect(wired.sort()).toEqual(operations.map((operation) => operation.name).sort());
  });
});
