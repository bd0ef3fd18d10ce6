/** A stand-in for the browser's WebSocket in component tests: records sockets; tests open, send and close them. */
export class FakeWebSocket extends EventTarget {
  static sockets: FakeWebSocket[] = [];
  readonly url: string;
  closed = false;

  constructor(url: string) {
    super();
    this.url = url;
    FakeWebSocket.sockets.push(this);
  }

  /** The server accepted the connection. */
  open() { this.dispatchEvent(new Event('open')); }
  /** The server sent a message (an object is sent as JSON). */
  receive(data: unknown) { this.dispatchEvent(new MessageEvent('message', { data: typeof data === 'string' ? data : JSON.stringify(data) })); }
  /** The connection dropped (from the server's side), with a close code. */
  drop(code = 1006) { this.dispatchEvent(new CloseEvent('close', { code })); }
  close() {
    this.closed = true;
    this.dispatchEvent(new Event('close'));
  }
}
