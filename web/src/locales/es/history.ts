/** El historial (twin of locales/en/history.ts). */
export default {
  title: 'Historial',
  subtitle: 'Tus cambios completados.',
  empty: 'Aún no tienes cambios completados. Aparecen aquí cuando tú y tu contraparte marcan un cambio como completado.',
  failed: 'No se pudo cargar tu historial: {{message}}',
  loadMore: 'Cargar más',
  sent: 'Enviaste',
  received: 'Recibiste',
  rate: 'Tipo de cambio {{rate}}',
  role: { requester: 'Tú lo solicitaste', matcher: 'Tú lo aceptaste' },
  with: 'con {{name}}',
  unknownUser: 'Información del usuario no disponible',
  completedAt: 'Completado el {{date}}',
  reference: 'Referencia #{{id}}',
};
