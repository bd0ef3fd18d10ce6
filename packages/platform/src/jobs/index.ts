/** Background jobs: the port and its two adapters (BullMQ for distributed mode, in-process for embedded mode). */
export * from './port.ts';
export { BullMqJobQueue, type BullMqJobQueueOptions } from './bullmq.ts';
export { InProcessJobQueue, type InProcessJobQueueOptions } from './in-process.ts';
