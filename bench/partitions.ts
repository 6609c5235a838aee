import type { Usage } from '#local/usage-meter';
import type { Figure } from './harness';

/** The rate the figures scale to: one upgraded business number at the platform's ceiling. */
const TARGET_MESSAGES_PER_SECOND = 1000;
/** Half of DynamoDB's per-partition limits (1,000 WCU/s, 3,000 RCU/s): the headroom the issue asks for. */
const WRITE_BUDGET = 500;
const READ_BUDGET = 1500;

/** A partition key with its ids replaced, so the figure names the kind of key (`WS#…#CAMPAIGN#…`). */
const kindOf = (key: string) => key.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{id}').replace(/\d{6,}/g, '{n}');

/**
 * The busiest partition key for writes and for reads over `messages` messages, as units per
 * message, scaled to a campaign of 1,000 messages/s: units per message × 1,000 is the key's
 * units per second at that rate, whatever rate the local run reached.
 */
export function partitionLoad(label: string, before: Usage, after: Usage, messages: number): Figure[] {
  const perKey = Object.entries(after.dynamodb.by_partition).map(([key, units]) => {
    const earlier = before.dynamodb.by_partition[key] ?? { read_units: 0, write_units: 0 };
    return { key, write: (units.write_units - earlier.write_units) / messages, read: (units.read_units - earlier.read_units) / messages };
  });
  const busiest = (kind: 'write' | 'read') => perKey.reduce((top, entry) => (entry[kind] > top[kind] ? entry : top), { key: 'none', write: 0, read: 0 });
  const top = (kind: 'write' | 'read') =>
    [...perKey]
      .sort((a, b) => b[kind] - a[kind])
      .slice(0, 5)
      .map((entry) => ({ key: kindOf(entry.key), units_per_second: Math.round(entry[kind] * TARGET_MESSAGES_PER_SECOND) }));
  const write = busiest('write');
  const read = busiest('read');
  return [
    {
      name: `${label}: busiest partition key for writes at ${TARGET_MESSAGES_PER_SECOND} messages/s (${kindOf(write.key)})`,
      value: write.write * TARGET_MESSAGES_PER_SECOND,
      unit: 'WCU/s',
      budget: { max: WRITE_BUDGET, of: 'value' },
      detail: { top: top('write') },
    },
    {
      name: `${label}: busiest partition key for reads at ${TARGET_MESSAGES_PER_SECOND} messages/s (${kindOf(read.key)})`,
      value: read.read * TARGET_MESSAGES_PER_SECOND,
      unit: 'RCU/s',
      budget: { max: READ_BUDGET, of: 'value' },
      detail: { top: top('read') },
    },
  ];
}
