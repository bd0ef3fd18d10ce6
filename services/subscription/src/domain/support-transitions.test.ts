import { describe, expect, it } from 'vitest';
import { MAX_OPEN_SUPPORT_REQUESTS, type SupportRequestStatus } from '@puente/contracts';
import { SupportRequest } from './support.ts';
import { ALREADY_RESOLVED, TOO_MANY_OPEN, openSupportRequest, resolveSupportRequest } from './support-transitions.ts';
import { refusal } from '@puente/platform/testing';

const AT = new Date('2026-11-01T10:00:00Z');
const ADMIN = 9;
const content = { subject: 'Payout', message: 'Where is my money?' };

const aRequest = (status: SupportRequestStatus) => Object.assign(new SupportRequest(), {
  id: 3, userId: 7, ...content, status, reply: null, createdAt: AT, resolvedAt: null, resolvedById: null,
} satisfies Partial<SupportRequest>);

describe('support request transitions', () => {
  it('open: a user under the open limit writes a request, open', () => {
    expect(openSupportRequest(7, content, MAX_OPEN_SUPPORT_REQUESTS - 1, AT)).toEqual({ userId: 7, ...content, status: 'open', createdAt: AT });
  });

  it('open: refused (409) at the open limit', () => {
    expect(refusal(() => openSupportRequest(7, content, MAX_OPEN_SUPPORT_REQUESTS, AT))).toMatchObject({ status: 409, message: TOO_MANY_OPEN });
  });

  it.each(['answered', 'closed'] as const)('resolve: an open request is %s by an admin', (status) => {
    const row = aRequest('open');
    resolveSupportRequest(row, { status, reply: status === 'answered' ? 'Sent today' : undefined }, ADMIN, AT);
    expect(row).toMatchObject({ status, reply: status === 'answered' ? 'Sent today' : null, resolvedAt: AT, resolvedById: ADMIN });
  });

  it.each(['answered', 'closed'] as const)('resolve: refused (409) once %s', (status) => {
    const row = aRequest(status);
    expect(refusal(() => resolveSupportRequest(row, { status: 'closed' }, ADMIN, AT))).toMatchObject({ status: 409, message: ALREADY_RESOLVED });
    expect(row).toMatchObject({ status, resolvedById: null });
  });
});
