import { describe, expect, it } from 'vitest';
import { VerificationFlag, VerificationTypes } from './verification-request.ts';
import { approveVerification, documentReceived, rejectVerification } from './verification-transitions.ts';
import { ADMIN, LATER, T0, USER, aUser, aVerificationRequest, refusal } from './transitions.fixture.ts';

const DECIDED = ['approved', 'rejected'] as const;

describe('verification request transitions', () => {
  it.each(VerificationTypes)('approve: a pending %s request is approved and its user verified for it', (type) => {
    const request = aVerificationRequest({ type });
    const user = aUser({ emailVerified: false });
    const events = approveVerification(request, user, ADMIN, LATER);
    expect(request).toMatchObject({ status: 'approved', decidedAt: LATER, decidedById: ADMIN });
    expect(user[VerificationFlag[type]]).toBe(true);
    expect(events).toMatchObject([{ type: 'identity.user.verified', aggregateId: String(USER), payload: { userId: USER, kind: type } }]);
  });

  it('approve: a request whose user is gone is approved, announcing nothing', () => {
    const request = aVerificationRequest();
    expect(approveVerification(request, null, ADMIN, LATER)).toEqual([]);
    expect(request.status).toBe('approved');
  });

  it('reject: a pending request is rejected; its user is left as they are and nothing is announced', () => {
    const request = aVerificationRequest();
    expect(rejectVerification(request, ADMIN, LATER)).toEqual([]);
    expect(request).toMatchObject({ status: 'rejected', decidedAt: LATER, decidedById: ADMIN });
  });

  it.each(DECIDED)('approve and reject: a request already %s is refused and left as it was', (status) => {
    const request = aVerificationRequest({ status, decidedAt: T0, decidedById: 3 });
    const user = aUser();
    const said = { status: 409, code: 'conflict', message: `This verification request has already been ${status}.` };
    expect(refusal(() => approveVerification(request, user, ADMIN, LATER))).toEqual(said);
    expect(refusal(() => rejectVerification(request, ADMIN, LATER))).toEqual(said);
    expect(request).toMatchObject({ status, decidedAt: T0, decidedById: 3 });
    expect(user.idVerified).toBe(false);
  });

  it('document received: an ID request awaiting its document goes to review, announcing nothing', () => {
    const request = aVerificationRequest({ type: 'id', status: 'awaiting_document' });
    expect(documentReceived(request)).toEqual([]);
    expect(request.status).toBe('pending');
  });

  it.each(['pending', 'approved', 'rejected'] as const)('document received: an ID request already %s takes no document', (status) => {
    const request = aVerificationRequest({ type: 'id', status });
    expect(refusal(() => documentReceived(request))).toMatchObject({ status: 409, code: 'id_document_not_awaited' });
    expect(request.status).toBe(status);
  });

  it('approve and reject: an ID request still awaiting its document cannot be decided', () => {
    const request = aVerificationRequest({ type: 'id', status: 'awaiting_document' });
    const said = { status: 409, code: 'conflict', message: 'This verification request is still waiting for its document.' };
    expect(refusal(() => approveVerification(request, aUser(), ADMIN, LATER))).toEqual(said);
    expect(refusal(() => rejectVerification(request, ADMIN, LATER))).toEqual(said);
    expect(request.status).toBe('awaiting_document');
  });
});
