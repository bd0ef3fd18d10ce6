/**
 * Chat attachments (proof of payment): PNG, JPEG and PDF taken by their content whatever their name, at most 5 MB,
 * sealed at rest, posted as a chat message with the file's name, type and size, opened by the two parties and
 * admins only, listed in the data download and erased with the account.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ChatMessage, ChatMessageList, ExchangeMatch, ExchangePersonalData } from '@puente/contracts';
import { contentDisposition, makeEvent } from '@puente/platform';
import { describeWithInfra } from '@puente/testkit';
import { ok, publishedPayloads, refusal, trader, useExchangeService } from './testing/traders.ts';

type Headers = Record<string, string>;
const MATCH_NOT_FOUND = { message: 'Exchange match not found', code: 'not_found' };

/** A 1×1 PNG, a JPEG's first bytes and a one-line PDF: what file-type knows them by. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(64, 1), Buffer.from([0xff, 0xd9])]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

interface Part { name: string; fileName?: string; data: Buffer | string }

/** A multipart/form-data body as a browser sends one. */
function form(...parts: Part[]) {
  const boundary = '----puente-test-boundary';
  const chunks = parts.flatMap((part) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.fileName === undefined ? '' : `; filename="${part.fileName}"`}\r\n`
      + `${part.fileName === undefined ? '' : 'Content-Type: application/octet-stream\r\n'}\r\n`),
    Buffer.from(part.data), Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

describeWithInfra(['postgres'], 'exchange chat attachments', () => {
  const exchange = useExchangeService();
  let nextUser = 1;
  const user = (firstName?: string) => trader(exchange.svc, nextUser++, firstName ? { firstName } : {});
  const { call } = exchange;
  const attach = (headers: Headers, matchId: number, ...parts: Part[]) => {
    const body = form(...parts);
    return exchange.svc.app.inject({
      method: 'POST', url: `/exchange-matches/${matchId}/attachments`, headers: { ...headers, 'content-type': body.type }, payload: body.payload,
    });
  };
  const file = (fileName: string, data: Buffer | string): Part => ({ name: 'file', fileName, data });
  const open = (headers: Headers, matchId: number, attachmentId: number) =>
    call('GET', `/exchange-matches/${matchId}/attachments/${attachmentId}`, headers);
  const messages = async (headers: Headers, matchId: number) =>
    ChatMessageList.parse(await ok(call('GET', `/exchange-matches/${matchId}/messages`, headers)));
  /** Every file the storage holds, by path. */
  const atRest = (dir = exchange.attachmentDir): Buffer[] => readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? atRest(join(dir, entry.name)) : [readFileSync(join(dir, entry.name))]));

  /** Ana's request accepted by Bruno and approved: a confirmed match. */
  async function trade() {
    const ana = await user('Ana');
    const bruno = await user('Bruno');
    const request = await ok(call('POST', '/exchange-requests', ana.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }), 201) as { id: number };
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: request.id }), 201));
    await ok(call('PUT', `/exchange-matches/${match.id}/confirm`, ana.headers));
    return { ana, bruno, match };
  }

  it('takes a PNG, a JPEG and a PDF with an optional caption; each is a chat message with its file, and opens as it was sent', async () => {
    const { ana, bruno, match } = await trade();
    const sent = [
      { part: file('transfer.png', PNG), caption: '  Paid, see the receipt  ', type: 'image/png', bytes: PNG, disposition: 'inline; filename="transfer.png"' },
      { part: file('photo.jpeg', JPEG), caption: '', type: 'image/jpeg', bytes: JPEG, disposition: 'inline; filename="photo.jpeg"' },
      { part: file('statement.pdf', PDF), caption: undefined, type: 'application/pdf', bytes: PDF, disposition: 'attachment; filename="statement.pdf"' },
    ];
    const posted: ChatMessage[] = [];
    for (const s of sent) {
      const parts = s.caption === undefined ? [s.part] : [{ name: 'caption', data: s.caption }, s.part];
      const message = ChatMessage.parse(await ok(attach(bruno.headers, match.id, ...parts), 201));
      expect(message).toEqual({
        id: message.id, matchId: match.id, kind: 'attachment', authorId: bruno.userId, body: s.caption?.trim() ?? '',
        attachment: { id: message.attachment!.id, fileName: s.part.fileName, contentType: s.type, size: s.bytes.length },
        event: null, subjectId: null, createdAt: exchange.now.toISOString(),
      });
      posted.push(message);
      // The other party opens it: the same bytes, its own type, never sniffed, never kept by a shared cache.
      const opened = await open(ana.headers, match.id, message.attachment!.id);
      expect(opened.statusCode).toBe(200);
      expect(opened.rawPayload.equals(s.bytes)).toBe(true);
      expect(opened.headers).toMatchObject({
        'content-type': s.type, 'x-content-type-options': 'nosniff', 'cache-control': 'private, no-store',
        'content-disposition': `${s.disposition}; filename*=UTF-8''${s.part.fileName}`,
      });
    }
    expect((await messages(ana.headers, match.id)).slice(-3)).toEqual(posted);
    // Each goes live to both parties with its file.
    const live = (await publishedPayloads(exchange.svc, 'chatMessagePosted')).filter((e) => e.message.kind === 'attachment' && e.matchId === match.id);
    expect(live.map((e) => e.message)).toEqual(posted);
  });

  it('keeps the bytes sealed at rest: no stored file holds what was sent', async () => {
    const { bruno, match } = await trade();
    const secret = Buffer.concat([PDF, Buffer.from('Account 12345678 sort code 12-34-56\n')]);
    await ok(attach(bruno.headers, match.id, file('proof.pdf', secret)), 201);
    const stored = atRest();
    expect(stored.length).toBeGreaterThan(0);
    for (const bytes of stored) {
      expect(bytes.includes(Buffer.from('12345678'))).toBe(false);
      expect(bytes.includes(PNG)).toBe(false);
      expect(bytes.subarray(0, 10).toString()).toBe('ephemeral:'); // the suite sets no ATTACHMENT_ENCRYPTION_KEYS
    }
  });

  it('refuses a file of another type whatever its name says (415), over 5 MB (413), none (400), a JSON body (415)', async () => {
    const { bruno, match } = await trade();
    const before = atRest().length;
    expect(refusal(await attach(bruno.headers, match.id, file('receipt.png', 'this is only text, not a picture')), 415))
      .toEqual({ message: 'Only PNG, JPEG or PDF files can be attached', code: 'attachment_type_not_allowed' });
    expect(refusal(await attach(bruno.headers, match.id, file('page.pdf', '<html><body>PDF?</body></html>')), 415).code).toBe('attachment_type_not_allowed');
    const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
    expect(refusal(await attach(bruno.headers, match.id, file('receipt.jpg', gif)), 415).code).toBe('attachment_type_not_allowed');
    const large = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 1 - PNG.length)]);
    expect(refusal(await attach(bruno.headers, match.id, file('big.png', large)), 413)).toEqual({
      message: 'The file must be at most 5 MB', code: 'file_too_large', errors: [{ field: 'file', message: 'The file must be at most 5 MB' }],
    });
    // Exactly 5 MB is taken.
    await ok(attach(bruno.headers, match.id, file('max.png', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 - PNG.length)]))), 201);
    expect(refusal(await attach(bruno.headers, match.id, { name: 'caption', data: 'no file' }), 400)).toMatchObject({ message: 'Choose a file to attach', code: 'file_required' });
    expect(refusal(await attach(bruno.headers, match.id, file('empty.png', '')), 400).code).toBe('file_required');
    expect(refusal(await attach(bruno.headers, match.id, { name: 'other', fileName: 'x.png', data: PNG }), 400).code).toBe('form_invalid');
    expect(refusal(await attach(bruno.headers, match.id, { name: 'caption', data: 'x'.repeat(2001) }, file('a.png', PNG)), 400)).toMatchObject({
      message: 'Caption must be at most 2000 characters', code: 'validation_failed',
    });
    expect(refusal(await call('POST', `/exchange-matches/${match.id}/attachments`, bruno.headers, { file: 'x' }), 415).code).toBe('multipart_required');
    const cutShort = await exchange.svc.app.inject({
      method: 'POST', url: `/exchange-matches/${match.id}/attachments`, payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      headers: { ...bruno.headers, 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(refusal(cutShort, 400).code).toBe('form_invalid');
    // Only the 5 MB file was kept.
    expect(atRest().length).toBe(before + 1);
  });

  it('keeps a name safe to show and to put in a header', async () => {
    const { bruno, match } = await trade();
    const message = ChatMessage.parse(await ok(attach(bruno.headers, match.id, file('../../pago ñ final.png', PNG)), 201));
    expect(message.attachment?.fileName).toBe('pago ñ final.png');
    const opened = await open(bruno.headers, match.id, message.attachment!.id);
    expect(opened.headers['content-disposition']).toBe('inline; filename="pago _ final.png"; filename*=UTF-8\'\'pago%20%C3%B1%20final.png');
    expect(contentDisposition('application/pdf', 'a"b\\c\r\nSet-Cookie: x.pdf')).toBe(
      'attachment; filename="a_b_c__Set-Cookie: x.pdf"; filename*=UTF-8\'\'a%22b%5Cc%0D%0ASet-Cookie%3A%20x.pdf',
    );
  });

  it('is for the two parties: anyone else gets the match\'s 404; an admin opens files but may not attach', async () => {
    const { ana, bruno, match } = await trade();
    const message = ChatMessage.parse(await ok(attach(ana.headers, match.id, file('proof.png', PNG)), 201));
    const attachmentId = message.attachment!.id;
    const outsider = await user();
    expect(refusal(await open(outsider.headers, match.id, attachmentId), 404)).toEqual(MATCH_NOT_FOUND);
    expect(refusal(await attach(outsider.headers, match.id, file('x.png', PNG)), 404)).toEqual(MATCH_NOT_FOUND);
    const admin = await exchange.svc.as({ kind: 'user', userId: 900, role: 'admin' });
    const opened = await open(admin, match.id, attachmentId);
    expect(opened.statusCode).toBe(200);
    expect(opened.rawPayload.equals(PNG)).toBe(true);
    expect(refusal(await attach(admin, match.id, file('x.png', PNG)), 404)).toEqual(MATCH_NOT_FOUND);
    // An attachment is opened through its own match only.
    const other = await trade();
    expect(refusal(await open(other.ana.headers, other.match.id, attachmentId), 404)).toEqual({ message: 'Attachment not found', code: 'not_found' });
    expect(refusal(await open(bruno.headers, match.id, 999_999), 404).message).toBe('Attachment not found');
    expect(refusal(await open(bruno.headers, match.id, 0), 400).message).toBe('Invalid attachment ID');
  });

  it('is refused once the chat is closed (a called-off match)', async () => {
    const ana = await user('Ana');
    const bruno = await user('Bruno');
    const request = await ok(call('POST', '/exchange-requests', ana.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 50, exchangeRate: 1275 }), 201) as { id: number };
    const match = ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', bruno.headers, { exchangeRequestId: request.id }), 201));
    await ok(call('PUT', `/exchange-matches/${match.id}/cancel`, bruno.headers));
    expect(refusal(await attach(bruno.headers, match.id, file('late.png', PNG)), 409).code).toBe('chat_closed');
  });

  it('lists a user\'s files in their data download; erases their bytes and rows once the account is deleted', async () => {
    const { ana, bruno, match } = await trade();
    const mine = ChatMessage.parse(await ok(attach(bruno.headers, match.id, { name: 'caption', data: 'Sent' }, file('proof.pdf', PDF)), 201));
    const hers = ChatMessage.parse(await ok(attach(ana.headers, match.id, file('hers.png', PNG)), 201));
    const identity = await exchange.svc.as({ kind: 'service', service: 'identity' });
    const download = async (userId: number) => ExchangePersonalData.parse(
      await ok(exchange.svc.app.inject({ method: 'GET', url: `/internal/personal-data/trades?userId=${userId}`, headers: identity })));
    expect((await download(bruno.userId)).chatMessages).toEqual([mine]);
    const stored = atRest().length;
    await exchange.svc.deliver(makeEvent('userDeleted', bruno.userId, { userId: bruno.userId }));
    expect(atRest().length).toBe(stored - 1);
    expect((await download(bruno.userId)).chatMessages).toEqual([]);
    expect(refusal(await open(ana.headers, match.id, mine.attachment!.id), 404).message).toBe('Attachment not found');
    expect((await messages(ana.headers, match.id)).filter((m) => m.kind === 'attachment')).toEqual([hers]);
    expect((await open(ana.headers, match.id, hers.attachment!.id)).rawPayload.equals(PNG)).toBe(true);
  });
});
