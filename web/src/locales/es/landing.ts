/** La página de inicio (twin of locales/en/landing.ts). */
export default {
  title: 'Cambia GBP y CLP, de persona a persona',
  hero: {
    overline: 'GBP ⇄ CLP, de persona a persona',
    heading: 'Cambia libras esterlinas y pesos chilenos con personas, no con bancos',
    text: 'Mejores tipos de cambio, un sistema de calificaciones para una comunidad confiable, sin comisiones ocultas, y datos bancarios compartidos solo cuando ambas partes confirman.',
    logIn: 'Iniciar sesión',
    signUp: 'Registrarse',
  },
  how: {
    heading: 'Cómo funciona',
    steps: [
      'Crea una solicitud de cambio.',
      'Haz match con otras personas; ambas partes confirman.',
      'Completa la transferencia desde tu propio banco y luego califica la experiencia.',
    ],
  },
  benefits: {
    heading: 'Por qué Puente',
    items: [
      { title: 'Mejores tipos de cambio', text: 'Acuerda un tipo de cambio con otra persona en vez de pagar el margen de un banco o una casa de cambio.' },
      { title: 'Una comunidad confiable', text: 'Cada persona es calificada después de cada cambio, así sabes con quién estás tratando.' },
      { title: 'Sin comisiones ocultas', text: 'Envías el dinero desde tu propio banco, con lo que tu banco cobre. No agregamos nada encima.' },
      { title: 'Datos compartidos solo al confirmar', text: 'Los datos bancarios se muestran solo cuando ambas partes confirmaron el cambio.' },
    ],
    safety: 'Cómo se protegen los cambios',
    noTransfers: 'Puente no procesa ni maneja transferencias de dinero: pagas y recibes desde tus propios bancos.',
  },
};
