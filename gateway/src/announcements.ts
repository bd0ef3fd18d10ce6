/**
 * Which open sockets a change of polled data concerns. Every bump of versions is announced (platform http/versions.ts)
 * with the keys it moved, as the store names them (`exchange:market`, `notification:unread:7`); a polled route's
 * declaration says which keys its answer to a user depends on (pollKeys). So for each user with a socket open here,
 * the keys of every polled route are worked out once, from the declarations, when their first socket opens: a bump
 * of a key then concerns exactly the users whose answers depend on it (the market's key every one of them, a user's
 * own keys only them), and names the routes to read again. Nothing here knows a service's keys by heart.
 */
import { ApiRoutes, pollKeys, type ApiRoute, type VersionsMessage } from '@puente/contracts';
import { versionKeyOf } from '@puente/platform';

const POLLED_ROUTES = ApiRoutes.filter((route): route is ApiRoute & Required<Pick<ApiRoute, 'polled'>> => Boolean(route.polled));

/** For one user: the paths of the polled routes whose answer depends on each key. */
function pathsByKey(userId: number): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const route of POLLED_ROUTES) {
    for (const key of pollKeys(route.polled, { userId })) {
      const stored = versionKeyOf(route.service, key);
      byKey.set(stored, [...(byKey.get(stored) ?? []), route.path]);
    }
  }
  return byKey;
}

/** The users watching (a socket open here) by key, with the routes each key moves for them. */
export class Watchers {
  private readonly byKey = new Map<string, Map<number, readonly string[]>>();

  /** A user's first socket opened here. */
  watch(userId: number): void {
    for (const [key, paths] of pathsByKey(userId)) {
      let users = this.byKey.get(key);
      if (!users) this.byKey.set(key, users = new Map());
      users.set(userId, paths);
    }
  }

  /** A user's last socket here closed. */
  unwatch(userId: number): void {
    for (const key of pathsByKey(userId).keys()) {
      const users = this.byKey.get(key);
      users?.delete(userId);
      if (users?.size === 0) this.byKey.delete(key);
    }
  }

  /** The message for each user these bumped keys concern: the routes whose answer changed for them. */
  messagesFor(keys: readonly string[]): Map<number, VersionsMessage> {
    const routes = new Map<number, Set<string>>();
    for (const key of keys) {
      for (const [userId, paths] of this.byKey.get(key) ?? []) {
        let mine = routes.get(userId);
        if (!mine) routes.set(userId, mine = new Set());
        for (const path of paths) mine.add(path);
      }
    }
    return new Map([...routes].map(([userId, paths]) => [userId, { type: 'versions', routes: [...paths] }]));
  }
}
