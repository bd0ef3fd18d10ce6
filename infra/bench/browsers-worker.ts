/** A worker thread of the load generator: its share of the simulated browsers (browsers.ts), driven by messages. */
import { parentPort } from 'node:worker_threads';
import { Browsers, type BrowserUser } from './browsers.ts';

export type BrowsersCommand =
  | { id: number; add: { users: BrowserUser[]; urls: string[]; perSecond: number } }
  | { id: number; take: true }
  | { id: number; stop: true };

const browsers = new Browsers();
parentPort!.on('message', (command: BrowsersCommand) => {
  void (async () => {
    if ('add' in command) {
      await browsers.add(command.add.users, command.add.urls, command.add.perSecond);
      parentPort!.postMessage({ id: command.id });
    } else if ('take' in command) {
      const tally = browsers.take();
      parentPort!.postMessage({ id: command.id, tally }, [tally.latencies.buffer as ArrayBuffer]);
    } else {
      await browsers.stop();
      parentPort!.postMessage({ id: command.id });
    }
  })();
});
