/** Las notificaciones y el canal en vivo (twin of locales/en/notifications.ts; each notification's sentence is the contracts'). */
export default {
  title: 'Notificaciones',
  bell: 'Notificaciones',
  bellUnread_one: 'Notificaciones, {{count}} sin leer',
  bellUnread_many: 'Notificaciones, {{count}} sin leer',
  bellUnread_other: 'Notificaciones, {{count}} sin leer',
  empty: 'Aún no tienes notificaciones.',
  markAllRead: 'Marcar todo como leído',
  unread: 'Sin leer',
  failedMarkRead: 'No se pudieron marcar las notificaciones como leídas: {{message}}',
  error: 'Error',
  failedLoad: 'No se pudieron cargar las notificaciones: {{message}}',
  live: {
    matchTitle: '¡Cambio aceptado!',
    matchText: 'Los datos bancarios ya están disponibles para ambas partes.',
    newTitle: 'Nueva notificación',
    newFallback: 'Tienes una nueva notificación',
    receiptTitle: '¿Recibiste tu dinero?',
  },
};
