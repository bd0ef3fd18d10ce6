/** Títulos de página y páginas que son solo una ruta (twin of locales/en/pages.ts). */
export default {
  accounts: { title: 'Cuentas bancarias', subtitle: 'Una cuenta en GBP y otra en CLP: donde tus contrapartes te envían dinero y desde donde tú lo envías.' },
  admin: { title: 'Monitoreo de administración', subtitle: 'Intentos de registro e inicio de sesión.' },
  forgotPassword: { title: 'Olvidé mi contraseña', heading: '¿Olvidaste tu contraseña?' },
  login: { title: 'Iniciar sesión', heading: 'Inicia sesión en Puente', subtitle: 'Cambia GBP y CLP con personas que puedes calificar y en quienes puedes confiar.' },
  register: { title: 'Registrarse', heading: 'Crea tu cuenta de Puente', subtitle: 'Para registrarte necesitas un código de referido de alguien que ya usa Puente.' },
  resetPassword: { title: 'Restablecer contraseña', heading: 'Elige una nueva contraseña' },
  linkGoogle: { title: 'Vincular Google', heading: 'Vincula tu cuenta de Google' },
  verifyEmail: { title: 'Verificar cuenta', heading: 'Verificando tu cuenta' },
  profile: { title: 'Perfil' },
  signingOut: 'Cerrando sesión',
  notFound: {
    title: 'Página no encontrada',
    heading: '404 Página no encontrada',
    text: 'La página que buscas no existe o cambió de lugar.',
    home: 'Ir al inicio',
  },
  error: {
    heading: 'Algo salió mal',
    text: 'No se pudo mostrar esta página. Recárgala; si sigue fallando, inténtalo más tarde.',
    reload: 'Recargar',
  },
  terms: {
    title: 'Términos de uso',
    sections: [
      { heading: 'Qué es Puente', text: 'Puente es un mercado donde se encuentran personas que quieren cambiar libras esterlinas (GBP) y pesos chilenos (CLP). No mueve dinero: Puente no procesa, guarda ni maneja transferencias de dinero. Tú y la otra persona se pagan desde sus propios bancos.' },
      { heading: 'Tu responsabilidad', text: 'Tú decides con quién cambiar y cuándo enviar dinero. Revisa las calificaciones de la otra persona y los montos acordados antes de transferir. Puente no puede revertir, reembolsar ni garantizar una transferencia entre bancos.' },
      { heading: 'Tus cuentas y datos', text: 'Agrega solo cuentas bancarias a tu nombre y mantén tus datos al día. Tus datos bancarios se muestran a la otra parte solo cuando ambos confirmaron un cambio.' },
      { heading: 'Uso justo', text: 'Usa Puente solo para cambios legales de tu propio dinero. No crees cuentas para otras personas, no te hagas pasar por otra persona ni califiques de forma injusta. Podemos suspender las cuentas que no cumplan estas reglas.' },
      { heading: 'Planes', text: 'El plan gratuito y el plan premium limitan el monto y la cantidad de cambios, como muestra la página de suscripción. Premium se cobra mensualmente y se puede cancelar cuando quieras.' },
    ],
  },
};
