/** A worker thread of the load generator: its share of the simulated browsers (browsers.ts), driven by messages. */
import { parentPort } from 'node:worker_threads';
import { Browsers, type BrowserUser } from './browsers.ts';

export type BrowsersCommand =
  | { id: number; add: { users: BrowserUser[]; urls: string[]; perSecond: number; pollAtOnce?: boolean } }
  | { id: number; take: true }
  | { id: number; drop: number }
  | { id: number; stop: true };

const browsers = new Browsers();
parentPort!.on('message', (command: BrowsersCommand) => {
  void (async () => {
    if ('add' in command) {
      await browsers.add(command.add.users, command.add.urls, command.add.perSecond, command.add.pollAtOnce);
      parentPort!.postMessage({ id: command.id });
    } else if ('take' in command) {
      const tally = browsers.take();
      parentPort!.postMessage({ id: command.id, tally }, [tally.latencies.buffer as ArrayBuffer, tally.admitted.buffer as ArrayBuffer, tally.firstPolls.buffer as ArrayBuffer, tally.ownQueue.buffer as ArrayBuffer]);
    } else if ('drop' in command) {
      await browsers.drop(command.drop);
      parentPort!.postMessage({ id: command.id });
    } else {
      await browsers.stop();
      parentPort!.postMessage({ id: command.id });
    }
  })();
});
