/** El historial (twin of locales/en/history.ts). */
export default {
  title: 'Historial',
  subtitle: 'Tus cambios en curso y completados.',
  inProgress: {
    title: 'En curso',
    empty: 'Nada en curso. Las solicitudes que publicas o aceptas aparecen aquí hasta que se completan.',
  },
  completed: 'Completados',
  empty: 'Aún no tienes cambios completados. Aparecen aquí cuando tú y tu contraparte marcan un cambio como completado, o cuando marcas tu solicitud como terminada.',
  failed: 'No se pudo cargar tu historial: {{message}}',
  loadMore: 'Cargar más',
  sent: 'Enviaste',
  received: 'Recibiste',
  rate: 'Tipo de cambio {{rate}}',
  role: { requester: 'Tú lo solicitaste', matcher: 'Tú lo aceptaste' },
  with: 'con {{name}}',
  unknownUser: 'Información del usuario no disponible',
  markedDone: 'Marcada como terminada por ti',
  completedAt: 'Completado el {{date}}',
  reference: 'Referencia #{{id}}',
};
