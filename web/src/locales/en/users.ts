/** The user directory's texts (spec sections 2 and 8). */
export default {
  title: 'User Directory',
  subtitle: 'Everyone on Puente, with their tier by rating.',
  loading: 'Loading the user directory',
  failed: 'Unable to load user directory. Please try again later.',
  empty: 'No users yet.',
  exchanges_one: '{{count}} completed exchange',
  exchanges_other: '{{count}} completed exchanges',
  ratings_one: '{{count}} rating',
  ratings_other: '{{count}} ratings',
  memberSince: 'Member since {{date}}',
  admin: ' · admin',
  plan: ' · {{tier}} plan',
};
