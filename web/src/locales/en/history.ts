/** The history page's texts (spec sections 2, 3 and 4, word for word). */
export default {
  title: 'History',
  subtitle: 'Your exchanges in progress and completed.',
  inProgress: {
    title: 'In progress',
    empty: 'Nothing in progress. Requests you post or accept are listed here until they complete.',
  },
  completed: 'Completed',
  empty: 'No completed exchanges yet. They appear here once you and your partner mark an exchange completed, or you mark your request done.',
  failed: 'Unable to load your history: {{message}}',
  loadMore: 'Load more',
  sent: 'You sent',
  received: 'You received',
  rate: 'Rate {{rate}}',
  role: { requester: 'You requested', matcher: 'You accepted' },
  with: 'with {{name}}',
  unknownUser: 'User information unavailable',
  markedDone: 'Marked done by you',
  completedAt: 'Completed {{date}}',
  reference: 'Reference #{{id}}',
};
