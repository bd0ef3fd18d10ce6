/** The history page's texts (spec sections 2, 3 and 4, word for word). */
export default {
  title: 'History',
  subtitle: 'Your completed exchanges.',
  empty: 'No completed exchanges yet. They appear here once you and your partner mark an exchange completed.',
  failed: 'Unable to load your history: {{message}}',
  loadMore: 'Load more',
  sent: 'You sent',
  received: 'You received',
  rate: 'Rate {{rate}}',
  role: { requester: 'You requested', matcher: 'You accepted' },
  with: 'with {{name}}',
  unknownUser: 'User information unavailable',
  completedAt: 'Completed {{date}}',
  reference: 'Reference #{{id}}',
};
