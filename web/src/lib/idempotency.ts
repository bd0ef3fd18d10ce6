/**
 * A form's idempotency key (the `Idempotency-Key` header, lib/api-client.ts). A form keeps one key while what it sends
 * stays the same and its outcome is unknown, so a second press of Submit, or a resend after a network error or a 5xx
 * (the request may have been done before the answer was lost), reaches the service as a repeat: it answers with the
 * first answer and creates nothing twice. Nothing is resent by itself: the spec allows no automatic retries.
 *
 * A new key starts when the previous one has its answer: after a success the next submission is a new one (a second
 * chat message with the same words is meant), and after a refusal (4xx) nothing was created, so a resubmit is a new
 * attempt too. A change of what is sent starts a new key as well: the service refuses a key with another body (409).
 * A form that closes takes its key with it; a form that stays mounted keeps its key for as long as its content is
 * unchanged and its outcome unknown, which is when reusing it prevents a duplicate.
 */
import { useMemo, useRef } from 'react';
import { IdempotencyRefusals } from '@puente/contracts';
import { ApiError, errorCode } from './api-client.ts';

export interface IdempotentSend {
  /**
   * Sends `content` with `send`, which puts the key it is given on its request: the key kept for this content, or a
   * new one. `content` is what the request carries (its body, or a file's name, size and date with the caption).
   */
  send: <T>(content: unknown, send: (idempotencyKey: string) => Promise<T>) => Promise<T>;
}

/**
 * Whether the service answered for certain, a refusal that did nothing, or not: no answer (the network), a 5xx, or
 * the key's first request still without its answer (a resend under the key gets that answer once it has one).
 * A key refused as used for another request would be refused again: the next press starts a new one.
 */
function settled(error: unknown): boolean {
  return error instanceof ApiError && error.status < 500 && errorCode(error) !== IdempotencyRefusals.inUse.code;
}

/** A version 4 UUID. randomUUID exists only in secure contexts (HTTPS, localhost); getRandomValues everywhere. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The idempotency key of one form (or one action's button), for as long as the component that uses it is mounted. */
export function useIdempotencyKey(): IdempotentSend {
  const kept = useRef<{ key: string; content: string } | null>(null);
  return useMemo(() => {
    // Only the key that was sent is let go: a later submission may already hold a newer one.
    const release = (key: string) => {
      if (kept.current?.key === key) kept.current = null;
    };
    return {
      send: async (content, send) => {
        const text = JSON.stringify(content) ?? '';
        if (kept.current?.content !== text) kept.current = { key: newIdempotencyKey(), content: text };
        const { key } = kept.current;
        try {
          const result = await send(key);
          release(key);
          return result;
        } catch (error) {
          if (settled(error)) release(key);
          throw error;
        }
      },
    };
  }, []);
}
