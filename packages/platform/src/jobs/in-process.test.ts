import { InProcessJobQueue } from './in-process.ts';
import { runJobQueueSuite } from './suite.ts';

runJobQueueSuite('in-process', () => new InProcessJobQueue());
