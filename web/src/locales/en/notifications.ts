/**
 * Notifications and the live channel's texts (spec sections 2, 4, 8 and 9, word for word). Each notification's own
 * sentence is the contracts' notification catalogue's (features/notifications/notification-text.ts).
 */
export default {
  title: 'Notifications',
  bell: 'Notifications',
  bellUnread_one: 'Notifications, {{count}} unread',
  bellUnread_other: 'Notifications, {{count}} unread',
  empty: 'You have no notifications yet.',
  markAllRead: 'Mark all read',
  unread: 'Unread',
  failedMarkRead: 'Failed to mark notifications as read: {{message}}',
  error: 'Error',
  failedLoad: 'Unable to load notifications: {{message}}',
  live: {
    matchTitle: 'Exchange Matched!',
    matchText: 'Bank details are now available for both parties.',
    newTitle: 'New Notification',
    newFallback: 'You have a new notification',
    receiptTitle: 'Did you receive your money?',
  },
};
