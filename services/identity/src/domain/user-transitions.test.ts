import { describe, expect, it } from 'vitest';
import { editProfile, linkGoogleAccount, registered } from './user-transitions.ts';
import { USER, aUser } from './transitions.fixture.ts';

describe('user transitions', () => {
  it('registered: announces the stored user with their names, role and referrer', () => {
    expect(registered(aUser())).toMatchObject([{
      type: 'identity.user.registered', aggregateId: String(USER),
      payload: { userId: USER, firstName: 'Zoe', lastName: 'Diaz', role: 'user', referrerId: 5 },
    }]);
    expect(registered(aUser({ role: 'admin', referredById: null }))[0]!.payload).toMatchObject({ role: 'admin', referrerId: null });
  });

  it('edit profile: a name given is set and announced with both names', () => {
    const user = aUser({ profileImageUrl: 'https://img.test/z.png' });
    const events = editProfile(user, { lastName: 'Rojas' });
    expect(user).toMatchObject({ firstName: 'Zoe', lastName: 'Rojas' });
    expect(events).toMatchObject([{
      type: 'identity.user.profile-updated', payload: { userId: USER, firstName: 'Zoe', lastName: 'Rojas', profileImageUrl: 'https://img.test/z.png' },
    }]);
  });

  it('edit profile: the language alone is set and not announced; fields not given are left', () => {
    const user = aUser();
    expect(editProfile(user, { language: 'es' })).toEqual([]);
    expect(user).toMatchObject({ firstName: 'Zoe', lastName: 'Diaz', language: 'es' });
    expect(editProfile(user, {})).toEqual([]);
    expect(user).toMatchObject({ firstName: 'Zoe', lastName: 'Diaz', language: 'es' });
  });

  it('link Google: links the account if none was and verifies the email; an account already linked stays', () => {
    const user = aUser({ emailVerified: false });
    linkGoogleAccount(user, 'google-sub-1');
    expect(user).toMatchObject({ googleSubject: 'google-sub-1', emailVerified: true });
    linkGoogleAccount(user, 'google-sub-1');
    expect(user.googleSubject).toBe('google-sub-1');
    const linked = aUser({ googleSubject: 'google-sub-0' });
    linkGoogleAccount(linked, 'google-sub-1');
    expect(linked.googleSubject).toBe('google-sub-0');
  });
});
