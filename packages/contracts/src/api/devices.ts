/**
 * Signed-in devices: the user's sessions as the gateway keeps them (GET /api/auth/sessions, DELETE
 * /api/auth/sessions/{id}), the devices identity has seen the user sign in from (a new one is emailed), and the one
 * definition of "network" both show.
 */
import { z } from 'zod';
import { IsoDateTime } from './common.ts';

/**
 * A session's public id: derived from the session (a digest), never the session's secret, so the list can name each
 * session without handing out what would let someone use it.
 */
export const SessionPublicId = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'Invalid session ID');

/**
 * GET /api/auth/sessions: one browser signed in to the caller's account. `browser` and `os` are the families the user
 * agent names (null when it names none); `network` is the address it was last used from, approximately (the /24 of
 * IPv4, the /48 of IPv6); `lastSeenAt` is coarse (recorded at most once a minute). `current` marks the caller's own.
 */
export const SignedInSession = z.object({
  id: SessionPublicId,
  createdAt: IsoDateTime,
  lastSeenAt: IsoDateTime,
  browser: z.string().nullable(),
  os: z.string().nullable(),
  network: z.string().nullable(),
  current: z.boolean(),
});
export type SignedInSession = z.infer<typeof SignedInSession>;

/** The caller's sessions: their own first, then the most recently used. */
export const SignedInSessionList = z.array(SignedInSession);
export type SignedInSessionList = z.infer<typeof SignedInSessionList>;

/** Route params of DELETE /api/auth/sessions/{id} */
export const SessionIdParams = z.object({ id: SessionPublicId });
export type SessionIdParams = z.infer<typeof SessionIdParams>;

export const SessionMessages = {
  notFound: 'Session not found',
} as const;

/**
 * The network an address belongs to, as far as the profile and the new-device email tell it: the /24 of an IPv4
 * address (`203.0.113.0/24`), the /48 of an IPv6 one (`2001:db8:85a3::/48`); null for anything else. Coarse on
 * purpose: a home or office network keeps its prefix while its last bits change, and the whole address is not shown.
 */
export function approximateNetwork(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const address = ip.trim().replace(/^\[|\]$/g, '').split('%')[0]!; // brackets and an IPv6 zone are not the address
  const v4 = ipv4Octets(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address);
  if (v4) return `${v4.slice(0, 3).join('.')}.0/24`;
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const prefix = groups.slice(0, 3).map((g) => parseInt(g, 16).toString(16));
  while (prefix.at(-1) === '0') prefix.pop();
  return `${prefix.join(':')}::/48`;
}

function ipv4Octets(address: string): number[] | null {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address)?.slice(1).map(Number);
  return parts && parts.every((n) => n <= 255) ? parts : null;
}

/** The eight groups of an IPv6 address (`::` expanded, an IPv4 tail as two groups), or null when it is not one. */
function ipv6Groups(address: string): string[] | null {
  let text = address;
  const tail = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const o = ipv4Octets(tail[1]!);
    if (!o) return null;
    text = `${text.slice(0, -tail[1]!.length)}${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  return groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) ? groups : null;
}

/**
 * A device identity has seen the user sign in from (browser and OS families, approximate network): a sign-in from one
 * not seen for 90 days is emailed to the user. Null where the browser or its address did not say.
 */
export const KnownDevice = z.object({
  browser: z.string().nullable(),
  os: z.string().nullable(),
  network: z.string().nullable(),
  firstSeenAt: IsoDateTime,
  lastSeenAt: IsoDateTime,
});
export type KnownDevice = z.infer<typeof KnownDevice>;
