import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One file at a time: several suites start whole systems (seven services, a gateway, and in distributed mode
    // Postgres, Redis and a Kafka-protocol broker); two at once on a 2-core CI machine slow Kafka's rebalances past
    // the suites' waits, and on the whole run it saves no time.
    fileParallelism: false,
  },
});
