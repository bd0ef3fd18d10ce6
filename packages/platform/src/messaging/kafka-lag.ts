/**
 * A consumer group's lag as the broker sees it (what kafka-exporter or Burrow report): for each partition of its
 * topics, the end offset minus the group's committed offset. Asked at scrape time, not on the consuming path.
 */
import type { Admin } from 'kafkajs';
import { withDeadline } from './kafka-client.ts';

const LAG_TIMEOUT_MS = 2_000;

/**
 * Where the group has committed nothing on a partition yet, an 'earliest' group has every kept record ahead of it,
 * a 'latest' one (the gateway's live channel) nothing: it starts at the end.
 */
export async function groupLag(admin: Admin, group: string, topics: readonly string[], startFrom: 'earliest' | 'latest'): Promise<number> {
  const ask = async () => {
    const committed = await admin.fetchOffsets({ groupId: group, topics: [...topics] });
    let lag = 0;
    for (const { topic, partitions } of committed) {
      const ends = await admin.fetchTopicOffsets(topic).catch((err: unknown) => {
        if ((err as { type?: string }).type === 'UNKNOWN_TOPIC_OR_PARTITION') return []; // nothing published there yet
        throw err;
      });
      const done = new Map(partitions.map((p) => [p.partition, Number(p.offset)]));
      for (const end of ends) {
        const at = done.get(end.partition) ?? -1;
        const from = at >= 0 ? Math.max(at, Number(end.low)) : startFrom === 'latest' ? Number(end.high) : Number(end.low);
        lag += Math.max(0, Number(end.high) - from);
      }
    }
    return lag;
  };
  return withDeadline(ask(), LAG_TIMEOUT_MS, `the lag of group ${group} was not known within ${LAG_TIMEOUT_MS} ms`);
}
