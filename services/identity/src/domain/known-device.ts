/**
 * The devices a user has signed in from: a browser family on an OS family, on a network (the /24 of IPv4, the /48 of
 * IPv6: `approximateNetwork` in contracts), recorded at every successful login. A login from a device the user has
 * not signed in from for 90 days is a new device, and the user is emailed (jobs/send-account-notice.ts) — except
 * at the first login identity records for them: their sign-up's, or the first after this table began, which would
 * otherwise alert every user at once.
 */
import Bowser from 'bowser';
import { LockMode, defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { approximateNetwork, type KnownDevice as KnownDeviceBody } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';
import { User } from './user.ts';
import type { ClientMeta } from './attempts.ts';

/** A device not signed in from for this long is new again. */
export const NEW_DEVICE_AFTER_MS = 90 * 24 * 3600 * 1000;
/** Longest browser or OS name kept (a client may send anything). */
const FAMILY_MAX = 60;

export const KnownDeviceSchema = defineEntity({
  name: 'KnownDevice',
  tableName: 'known_device',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    /** The families the user agent names, and the approximate network; '' where the browser did not say. */
    browser: p.string(),
    os: p.string(),
    network: p.string(),
    firstSeenAt: p.datetime(),
    lastSeenAt: p.datetime(),
  },
  uniques: [{ name: 'known_device_user_id_browser_os_network_unique', properties: ['userId', 'browser', 'os', 'network'] }],
});
export class KnownDevice extends KnownDeviceSchema.class {}
KnownDeviceSchema.setClass(KnownDevice);

/** A device as a login shows it: null where the browser or its address did not say. */
export interface LoginDevice { browser: string | null; os: string | null; network: string | null }

/** The device of a request, from the user agent and the address the gateway forwarded. */
export function deviceOf(meta: ClientMeta): LoginDevice {
  const parsed = meta.userAgent ? Bowser.parse(meta.userAgent) : undefined;
  const family = (name: string | undefined) => (name ? name.slice(0, FAMILY_MAX) : null);
  return { browser: family(parsed?.browser.name), os: family(parsed?.os.name), network: approximateNetwork(meta.ipAddress) };
}

/**
 * Records a successful login's device in the caller's transaction; answers whether it is new to the user. The user's
 * row is locked first, so two logins of the same user from the same new device alert once.
 */
export async function recordLoginDevice(tx: EntityManager, userId: number, device: LoginDevice, now: Date): Promise<boolean> {
  await tx.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
  const key = { userId, browser: device.browser ?? '', os: device.os ?? '', network: device.network ?? '' };
  const known = await tx.findOne(KnownDevice, key);
  if (known) {
    const isNew = now.getTime() - known.lastSeenAt.getTime() > NEW_DEVICE_AFTER_MS;
    known.lastSeenAt = now;
    await tx.flush();
    return isNew;
  }
  const seenBefore = await tx.count(KnownDevice, { userId });
  tx.create(KnownDevice, { ...key, firstSeenAt: now, lastSeenAt: now });
  await tx.flush();
  return seenBefore > 0;
}

/** The user's devices for their data download, most recently used first. */
export async function knownDevicesOf(em: EntityManager, userId: number): Promise<KnownDeviceBody[]> {
  const devices = await em.find(KnownDevice, { userId }, { orderBy: { lastSeenAt: 'desc', id: 'desc' } });
  return devices.map((d) => ({
    browser: d.browser || null, os: d.os || null, network: d.network || null,
    firstSeenAt: d.firstSeenAt.toISOString(), lastSeenAt: d.lastSeenAt.toISOString(),
  }));
}

/**
 * Forgets devices not signed in from for 90 days (they could no longer keep a login from being new), but keeps each
 * user's latest: it is what says the user has signed in before, so their next login is judged, not let through.
 */
export async function forgetOldDevices(em: EntityManager, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - NEW_DEVICE_AFTER_MS);
  const table = qualifiedTable(em, KnownDevice);
  const deleted = await em.execute<{ id: number }[]>(
    `delete from ${table} d where d.last_seen_at < ? and exists (
       select 1 from ${table} n where n.user_id = d.user_id and (n.last_seen_at, n.id) > (d.last_seen_at, d.id)) returning d.id`,
    [cutoff]);
  return deleted.length;
}
