/** La bienvenida del panel (twin of locales/en/dashboard.ts). */
export default {
  title: 'Panel',
  welcome: '¡Hola de nuevo, {{name}}!',
  trustRating: 'Calificación de confianza:',
};
