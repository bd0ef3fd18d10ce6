// Broker-outage simulation for Kafka clients.
//
// Design: one TcpProxy per broker, and the proxies rewrite broker addresses in the Kafka protocol itself.
// A Kafka client only uses its bootstrap list to fetch metadata, then connects to the addresses the brokers
// *advertise* (Metadata response) and to the group coordinator's address (FindCoordinator response). A plain TCP
// proxy in front of the bootstrap broker is therefore bypassed after the first request. So each proxy parses the
// response frames it forwards and replaces every advertised broker host:port by the matching proxy's host:port.
// The client then talks to the proxies only, and pausing them cuts it off from the whole cluster.
//
// Why not kafkajs's `socketFactory` (map advertised addresses to proxies client-side)? It would only work for code
// that lets the test inject a kafkajs option; with the rewrite, `brokers` is all a caller needs, so the outage also
// works for services started as child processes with KAFKA_BROKERS=<proxies>, and for any Kafka client.
//
// Only the versions the rewriter understands are used: the proxy also caps the versions the brokers announce in
// ApiVersions (Metadata ≤ v8, FindCoordinator ≤ v2: the non-"flexible" encodings; kafkajs 2.2 uses ≤ v6 and ≤ v2).
import { connect } from 'node:net';
import { startKafka } from './kafka.ts';
import { startTcpProxy } from './proxy.ts';
import type { ConnectionFilter } from './proxy.ts';
import type { KafkaCluster, TcpProxy } from './types.ts';

export interface ProxiedKafkaCluster extends KafkaCluster {
  /** one proxy per broker, in broker order */
  proxies: TcpProxy[];
  /** advertised broker address (host:port) → proxy address (host:port) */
  brokerAddressMap: Map<string, string>;
  /** makes every broker unreachable: open connections are reset, new ones are reset on connect */
  pause(): void;
  resume(): void;
}

/**
 * A fresh Kafka cluster (see startKafka) whose brokers are reachable only through pausable proxies.
 * Use `brokers` as the client's bootstrap list; call pause()/resume() to cut and restore connectivity.
 */
export async function startKafkaBehindProxy(): Promise<ProxiedKafkaCluster> {
  const cluster = await startKafka();
  const proxies: TcpProxy[] = [];
  try {
    const advertised = await describeBrokers(cluster.brokers);
    const addressMap = new Map<string, { host: string; port: number }>();
    for (const broker of advertised) {
      proxies.push(await startTcpProxy(broker.host, broker.port, { filter: () => kafkaAddressRewriter(addressMap) }));
    }
    const brokerAddressMap = new Map<string, string>();
    advertised.forEach((broker, i) => {
      const proxy = proxies[i] as TcpProxy;
      addressMap.set(`${broker.host}:${broker.port}`, { host: proxy.host, port: proxy.port });
      brokerAddressMap.set(`${broker.host}:${broker.port}`, `${proxy.host}:${proxy.port}`);
    });
    return {
      brokers: proxies.map((p) => `${p.host}:${p.port}`),
      proxies,
      brokerAddressMap,
      pause: () => proxies.forEach((p) => p.pause()),
      resume: () => proxies.forEach((p) => p.resume()),
      async stop() {
        await Promise.all(proxies.map((p) => p.close()));
        await cluster.stop();
      },
    };
  } catch (err) {
    await Promise.all(proxies.map((p) => p.close()));
    await cluster.stop();
    throw err;
  }
}

/**
 * The brokers' advertised addresses, asked from the first bootstrap broker that answers: ApiVersions, then Metadata
 * (no topics) at the highest version both sides know. Raw protocol rather than a kafkajs admin client: a few bytes,
 * and no kafkajs log or warning noise. (The mock cluster stops at Metadata v2; Kafka 4 starts at v4.)
 */
async function describeBrokers(bootstrap: string[]): Promise<{ host: string; port: number }[]> {
  let lastError: unknown = new Error('no bootstrap brokers');
  for (const address of bootstrap) {
    const at = address.lastIndexOf(':');
    const connection = await kafkaConnection(address.slice(0, at), Number(address.slice(at + 1))).catch((err) => {
      lastError = err;
      return null;
    });
    if (!connection) continue;
    try {
      const versions = await connection.request(API_VERSIONS, 0, Buffer.alloc(0));
      let version = 1;
      for (let i = 0, offset = 14; i < versions.readInt32BE(10); i++, offset += 6) {
        if (versions.readInt16BE(offset) === API_METADATA) version = Math.min(versions.readInt16BE(offset + 4), 8);
      }
      // topics: empty array = no topics (null would mean all); v4+: allow_auto_topic_creation = false
      const body = version >= 4 ? Buffer.from([0, 0, 0, 0, 0]) : Buffer.from([0, 0, 0, 0]);
      const response = await connection.request(API_METADATA, version, body);
      // response: correlation_id, [throttle_time_ms (v3+)], brokers ARRAY(node_id, host, port, [rack (v1+)]), ...
      const brokers: { nodeId: number; host: string; port: number }[] = [];
      let offset = 8 + (version >= 3 ? 4 : 0);
      const count = response.readInt32BE(offset);
      offset += 4;
      for (let i = 0; i < count; i++) {
        const nodeId = response.readInt32BE(offset);
        const [host, afterHost] = readString(response, offset + 4);
        const port = response.readInt32BE(afterHost);
        offset = version >= 1 ? skipNullableString(response, afterHost + 4) : afterHost + 4;
        brokers.push({ nodeId, host, port });
      }
      if (brokers.length === 0) throw new Error(`${address} reported no brokers`);
      return brokers.sort((a, b) => a.nodeId - b.nodeId).map(({ host, port }) => ({ host, port }));
    } catch (err) {
      lastError = err;
    } finally {
      connection.close();
    }
  }
  throw lastError;
}

/** A bare Kafka connection for one request at a time (header v1, client id "puente-testkit"). */
function kafkaConnection(
  host: string,
  port: number,
): Promise<{ request(apiKey: number, version: number, body: Buffer): Promise<Buffer>; close(): void }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setTimeout(5000, () => socket.destroy(new Error(`Kafka broker ${host}:${port} did not answer`)));
    let received = Buffer.alloc(0);
    let correlationId = 0;
    let waiting: { resolve: (frame: Buffer) => void; reject: (err: Error) => void } | null = null;
    const fail = (err: Error): void => {
      waiting?.reject(err);
      waiting = null;
      reject(err);
    };
    socket.once('error', fail);
    socket.once('close', () => fail(new Error(`Kafka broker ${host}:${port} closed the connection`)));
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (waiting && received.length >= 4 && received.length >= 4 + received.readInt32BE(0)) {
        const frame = received.subarray(0, 4 + received.readInt32BE(0));
        received = received.subarray(frame.length);
        const w = waiting;
        waiting = null;
        w.resolve(frame);
      }
    });
    socket.once('connect', () =>
      resolve({
        request(apiKey, version, body) {
          const header = Buffer.alloc(8);
          header.writeInt16BE(apiKey, 0);
          header.writeInt16BE(version, 2);
          header.writeInt32BE(++correlationId, 4);
          socket.write(withSize([Buffer.alloc(4), header, kafkaString('puente-testkit'), body]));
          return new Promise((res, rej) => {
            waiting = { resolve: res, reject: rej };
          });
        },
        close: () => socket.destroy(),
      }),
    );
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Kafka wire protocol: every message is int32 size + payload. Requests start with api_key int16, api_version int16,
// correlation_id int32; responses with correlation_id int32 (response header v0 for all versions handled here).

const API_METADATA = 3;
const API_FIND_COORDINATOR = 10;
const API_VERSIONS = 18;
const MAX_VERSION: Record<number, number> = { [API_METADATA]: 8, [API_FIND_COORDINATOR]: 2 };
const MAX_FRAME = 256 * 1024 * 1024;

type AddressMap = Map<string, { host: string; port: number }>;

/** Splits a byte stream into whole frames; anything that does not look like Kafka is passed through untouched. */
function framer(onFrame: (frame: Buffer) => Buffer): (data: Buffer) => Buffer {
  let pending: Buffer = Buffer.alloc(0);
  let passthrough = false;
  return (data) => {
    if (passthrough) return data;
    pending = pending.length === 0 ? data : Buffer.concat([pending, data]);
    const out: Buffer[] = [];
    while (pending.length >= 4) {
      const size = pending.readInt32BE(0);
      if (size < 0 || size > MAX_FRAME) {
        passthrough = true;
        out.push(pending);
        pending = Buffer.alloc(0);
        break;
      }
      if (pending.length < 4 + size) break;
      out.push(onFrame(pending.subarray(0, 4 + size)));
      pending = pending.subarray(4 + size);
    }
    return out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out);
  };
}

/** Per-connection filter rewriting advertised broker addresses (see the comment at the top). */
export function kafkaAddressRewriter(map: AddressMap): ConnectionFilter {
  const inFlight = new Map<number, { apiKey: number; version: number }>();
  return {
    toTarget: framer((frame) => {
      if (frame.length >= 12) {
        const apiKey = frame.readInt16BE(4);
        if (apiKey === API_METADATA || apiKey === API_FIND_COORDINATOR || apiKey === API_VERSIONS) {
          inFlight.set(frame.readInt32BE(8), { apiKey, version: frame.readInt16BE(6) });
        }
      }
      return frame;
    }),
    toClient: framer((frame) => {
      if (frame.length < 8) return frame;
      const correlationId = frame.readInt32BE(4);
      const request = inFlight.get(correlationId);
      if (!request) return frame;
      inFlight.delete(correlationId);
      try {
        switch (request.apiKey) {
          case API_METADATA:
            return request.version <= 8 ? rewriteMetadata(frame, request.version, map) : frame;
          case API_FIND_COORDINATOR:
            return request.version <= 2 ? rewriteFindCoordinator(frame, request.version, map) : frame;
          default:
            return capApiVersions(frame, request.version);
        }
      } catch {
        return frame; // malformed or unexpected: forward as is
      }
    }),
  };
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}

function kafkaString(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  const b = Buffer.alloc(2 + bytes.length);
  b.writeInt16BE(bytes.length);
  bytes.copy(b, 2);
  return b;
}

/** Reads STRING at `offset`; returns the string and the offset after it. */
function readString(frame: Buffer, offset: number): [string, number] {
  const length = frame.readInt16BE(offset);
  if (length < 0 || offset + 2 + length > frame.length) throw new RangeError('bad string');
  return [frame.toString('utf8', offset + 2, offset + 2 + length), offset + 2 + length];
}

/** Offset after a NULLABLE_STRING at `offset`. */
function skipNullableString(frame: Buffer, offset: number): number {
  const length = frame.readInt16BE(offset);
  return offset + 2 + Math.max(length, 0);
}

/** host STRING + port INT32 at `offset` → replacement bytes and offset after them. */
function mapAddress(frame: Buffer, offset: number, map: AddressMap): [Buffer, number] {
  const [host, afterHost] = readString(frame, offset);
  const port = frame.readInt32BE(afterHost);
  const end = afterHost + 4;
  const to = map.get(`${host}:${port}`);
  if (!to) return [frame.subarray(offset, end), end];
  return [Buffer.concat([kafkaString(to.host), int32(to.port)]), end];
}

function withSize(parts: Buffer[]): Buffer {
  const out = Buffer.concat(parts);
  out.writeInt32BE(out.length - 4, 0);
  return out;
}

// Metadata response v0-v8: [throttle_time_ms INT32 (v3+)] brokers ARRAY(node_id INT32, host STRING, port INT32,
// rack NULLABLE_STRING (v1+)) ...rest
function rewriteMetadata(frame: Buffer, version: number, map: AddressMap): Buffer {
  let offset = 8 + (version >= 3 ? 4 : 0);
  const count = frame.readInt32BE(offset);
  offset += 4;
  const parts: Buffer[] = [frame.subarray(0, offset)];
  for (let i = 0; i < count; i++) {
    parts.push(frame.subarray(offset, offset + 4)); // node_id
    const [address, afterAddress] = mapAddress(frame, offset + 4, map);
    parts.push(address);
    offset = version >= 1 ? skipNullableString(frame, afterAddress) : afterAddress;
    parts.push(frame.subarray(afterAddress, offset)); // rack
  }
  if (offset > frame.length) throw new RangeError('truncated metadata');
  parts.push(frame.subarray(offset));
  return withSize(parts);
}

// FindCoordinator response v0: error_code INT16, node_id INT32, host STRING, port INT32
// v1-v2: throttle_time_ms INT32, error_code INT16, error_message NULLABLE_STRING, node_id INT32, host, port
function rewriteFindCoordinator(frame: Buffer, version: number, map: AddressMap): Buffer {
  let offset = 8;
  offset = version >= 1 ? skipNullableString(frame, offset + 4 + 2) : offset + 2;
  offset += 4; // node_id
  const [address, end] = mapAddress(frame, offset, map);
  return withSize([frame.subarray(0, offset), address, frame.subarray(end)]);
}

// ApiVersions response v0-v2: error_code INT16, api_keys ARRAY(api_key INT16, min INT16, max INT16), ...
// v3 (flexible body, header v0): error_code INT16, api_keys COMPACT_ARRAY(api_key, min, max, TAGGED_FIELDS), ...
function capApiVersions(frame: Buffer, version: number): Buffer {
  const out = Buffer.from(frame); // copy: edited in place, same length
  let offset = 8 + 2;
  let count: number;
  if (version >= 3) {
    const [n, after] = readUVarint(out, offset);
    count = n - 1;
    offset = after;
  } else {
    count = out.readInt32BE(offset);
    offset += 4;
  }
  for (let i = 0; i < count; i++) {
    const apiKey = out.readInt16BE(offset);
    const cap = MAX_VERSION[apiKey];
    if (cap !== undefined && out.readInt16BE(offset + 4) > cap) out.writeInt16BE(cap, offset + 4);
    offset += 6;
    if (version >= 3) offset = skipTaggedFields(out, offset);
  }
  return out;
}

function readUVarint(buf: Buffer, offset: number): [number, number] {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const byte = buf.readUInt8(offset++);
    value |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [value >>> 0, offset];
  }
  throw new RangeError('bad varint');
}

function skipTaggedFields(buf: Buffer, offset: number): number {
  let [count, at] = readUVarint(buf, offset);
  while (count-- > 0) {
    const [, afterTag] = readUVarint(buf, at);
    const [size, afterSize] = readUVarint(buf, afterTag);
    at = afterSize + size;
  }
  return at;
}
