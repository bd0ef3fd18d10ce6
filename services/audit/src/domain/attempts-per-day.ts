/**
 * Sign-up and login attempts per UTC day of a period, by status (the admin page's stacked bars): one grouped query
 * per table, then every day of the period filled in, zeros where nothing happened, so the chart's days line up.
 */
import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { periodInstants, type AdminPeriodQuery, type AttemptsOnDay } from '@puente/contracts';
import { LoginAttempt, SignupAttempt } from './attempts.ts';

const DAY_MS = 86_400_000;
const UTC_DAY = `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;

interface DayCount { day: string; status: string; count: string | number }

const within = (period: AdminPeriodQuery) => {
  const { start, end } = periodInstants(period);
  return { createdAt: { $gte: start, $lt: end } };
};
const dayAndStatus = () => [raw(`${UTC_DAY} as day`), 'status', raw('count(*) as count')] as const;

export async function attemptsPerDay(em: EntityManager, period: AdminPeriodQuery): Promise<AttemptsOnDay[]> {
  const days = new Map<string, AttemptsOnDay>();
  for (let t = Date.parse(period.from); t <= Date.parse(period.to); t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.set(date, { date, signups: { completed: 0, pending: 0, failed: 0 }, logins: { success: 0, failed: 0 } });
  }
  const signups = await em.createQueryBuilder(SignupAttempt).select([...dayAndStatus()]).where(within(period))
    .groupBy([raw(UTC_DAY), 'status']).execute<DayCount[]>('all');
  const logins = await em.createQueryBuilder(LoginAttempt).select([...dayAndStatus()]).where(within(period))
    .groupBy([raw(UTC_DAY), 'status']).execute<DayCount[]>('all');
  for (const { day, status, count } of signups) {
    const counts = days.get(day)?.signups;
    if (counts) counts[status as keyof typeof counts] = Number(count);
  }
  for (const { day, status, count } of logins) {
    const counts = days.get(day)?.logins;
    if (counts) counts[status as keyof typeof counts] = Number(count);
  }
  return [...days.values()];
}
