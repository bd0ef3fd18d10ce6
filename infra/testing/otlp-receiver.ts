/**
 * A stand-in for Jaeger's OTLP/HTTP port in tests: accepts `POST /v1/traces` in OTLP's JSON encoding (what
 * @opentelemetry/exporter-trace-otlp-http sends) and keeps every span with the service that sent it. Anything else
 * (another path, protobuf) is refused, so a process exporting in another form fails the test rather than pass unseen.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { gunzipSync } from 'node:zlib';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** '' for a trace's root */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number;
  attributes: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
  url: string;
  spans(): ReceivedSpan[];
  /** Requests refused (wrong path or content type), as `<method> <path> <content-type>`. */
  refused(): string[];
  close(): Promise<void>;
}

interface AnyValue { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number }
interface KeyValue { key: string; value: AnyValue }
interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: KeyValue[] }
interface ExportRequest { resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[] }

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const refused: string[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const type = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !type.startsWith('application/json')) {
        refused.push(`${req.method} ${req.url} ${type}`);
        res.writeHead(415).end();
        return;
      }
      const raw = await buffer(req);
      const body = JSON.parse(String(req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw)) as ExportRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(valueOf(resourceSpans.resource?.attributes, 'service.name'));
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const s of scope.spans ?? []) {
            spans.push({
              service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name, kind: s.kind,
              attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, plain(a.value)])),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    })().catch(() => { res.writeHead(400).end(); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    refused: () => [...refused],
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function valueOf(attributes: KeyValue[] | undefined, key: string): unknown {
  const found = attributes?.find((a) => a.key === key);
  return found ? plain(found.value) : undefined;
}

function plain(value: AnyValue): unknown {
  return value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
}
