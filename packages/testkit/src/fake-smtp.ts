/**
 * Email in tests, where a service sends it (platform's mail.ts): a minimal SMTP server (RFC 5321 subset: EHLO/HELO,
 * MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS, no auth), so the real nodemailer SMTP transport is exercised; and the
 * reading of the .eml files a service writes into its mail folder when no SMTP_URL is set. Bodies are decoded from
 * quoted-printable, subjects from RFC 2047, both as UTF-8.
 */
import { readFile, readdir } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { basename, join } from 'node:path';
import { vi } from 'vitest';

export interface ReceivedMail { from: string; to: string[]; raw: string; text: string }

export interface FakeSmtpServer {
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the first `count` messages once they have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
}

/** Quoted-printable back to text: each run of =XX escapes is UTF-8 bytes (a Spanish email's ó is =C3=B3). */
const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));

/** A header's RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`, as non-ASCII subjects are sent) as text. */
export const decodeHeader = (value: string) =>
  value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=(?:\s+(?==\?))?/gi, (_m, encoding: string, text: string) => (encoding.toUpperCase() === 'B'
    ? Buffer.from(text, 'base64').toString('utf8')
    : decodeQuotedPrintable(text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/g, (_e, hex: string) => `=${hex.toUpperCase()}`))));

export async function startFakeSmtp(): Promise<FakeSmtpServer> {
  const messages: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let mail: { from: string; to: string[]; lines: string[] } = { from: '', to: [], lines: [] };
    const say = (line: string) => socket.write(`${line}\r\n`);
    say('220 fake-smtp ESMTP ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const raw = mail.lines.join('\r\n');
            const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
            messages.push({ from: mail.from, to: mail.to, raw, text: decodeQuotedPrintable(body) });
            mail = { from: '', to: [], lines: [] };
            say('250 2.0.0 queued');
          } else {
            mail.lines.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') { socket.write('250-fake-smtp\r\n250 8BITMIME\r\n'); }
        else if (verb === 'HELO' || verb === 'NOOP') say('250 OK');
        else if (verb === 'MAIL') { mail.from = /<([^>]*)>/.exec(line)?.[1] ?? ''; say('250 OK'); }
        else if (verb === 'RCPT') { mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? ''); say('250 OK'); }
        else if (verb === 'DATA') { inData = true; say('354 end data with <CR><LF>.<CR><LF>'); }
        else if (verb === 'RSET') { mail = { from: '', to: [], lines: [] }; say('250 OK'); }
        else if (verb === 'QUIT') { say('221 bye'); socket.end(); }
        else say('502 command not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(count, timeoutMs = 5000) {
      return vi.waitFor(() => {
        if (messages.length < count) throw new Error(`expected ${count} mails, got ${messages.length}`);
        return messages.slice(0, count);
      }, { timeout: timeoutMs, interval: 20 });
    },
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An .eml file of a mail folder; `kind` is read from its name (`<time>-<kind>-<random>.eml`). */
export interface FolderMail { file: string; kind: string; to: string; subject: string; text: string }

async function readMail(file: string): Promise<FolderMail> {
  const raw = (await readFile(file, 'utf8')).replace(/\r\n/g, '\n');
  const split = raw.indexOf('\n\n');
  const headers = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(headers)?.[1] ?? '';
  const kind = /^[\dT-]+Z-([a-z0-9-]+)-[0-9a-f]{8}\.eml$/.exec(basename(file))?.[1] ?? '';
  return { file, kind, to: header('To'), subject: decodeHeader(header('Subject')), text: decodeQuotedPrintable(raw.slice(split + 2)) };
}

/** Every email in the folder, oldest first (the file names start with the time); none when there is no folder. */
export async function mailsIn(dir: string): Promise<FolderMail[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(names.filter((n) => n.endsWith('.eml')).sort().map((n) => readMail(join(dir, n))));
}
