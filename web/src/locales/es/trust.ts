/** Confianza: las dos escalas y la página Confianza y seguridad (twin of locales/en/trust.ts). */
export default {
  scales: {
    rating: {
      explain: 'Calificación de confianza: el promedio de las estrellas que recibió una persona tras sus cambios completados, de 5.',
    },
    level: {
      chip: 'Nivel de confianza: $t(common:trustLevels.{{level}}) · {{score}}/100',
      chipLevel: 'Nivel de confianza: $t(common:trustLevels.{{level}})',
      explain: 'Nivel de confianza: un puntaje de 100 que suma las estrellas (hasta 40 puntos), los cambios completados (2 cada uno, hasta 30) y las verificaciones (hasta 30). No es la categoría del directorio.',
    },
    tier: {
      chip: 'Categoría del directorio: $t(common:trustLevels.{{level}})',
      explain: 'Categoría del directorio: sale solo del promedio de estrellas (Platino desde 4,5, Oro 4, Plata 3,5, Bronce 3). No es el nivel de confianza, que además cuenta los cambios completados y las verificaciones.',
    },
    more: 'Cómo funciona la confianza',
  },
  page: {
    title: 'Confianza y seguridad',
    intro: 'Cómo funciona un cambio en Puente, qué te protege, qué nunca hace Puente y cómo reportar un problema.',
    how: {
      heading: 'Cómo funciona un cambio',
      text: 'Puente no mueve dinero. Pone en contacto a dos personas; cada una le paga a la otra desde su propio banco.',
      steps: [
        'Alguien publica una solicitud de cambio y otra persona la acepta.',
        'Quien publicó la solicitud aprueba el match. Solo entonces ambos ven los datos bancarios del otro, nunca antes.',
        'Paga solo desde una cuenta bancaria a tu nombre e incluye la referencia del cambio. Espera el dinero a nombre de tu contraparte: Puente te advierte cuando el titular de una cuenta no coincide con el nombre del perfil.',
        'Cuando hayas enviado tu transferencia, presiona "Ya pagué" (puedes adjuntar un comprobante en el chat). A tu contraparte se le avisa que revise su banco.',
        'Cuando el dinero esté en tu cuenta, presiona "Recibí". Cualquiera de los dos puede marcar el cambio como completado.',
        'Si tu contraparte lo marca como completado antes de que digas que recibiste tu dinero, te preguntamos "¿Recibiste …?". Responde Sí, o No para abrir una disputa. Tienes 72 horas; si no respondes, cuenta como Sí.',
        'Luego se califican mutuamente.',
      ],
    },
    disputes: {
      heading: 'Disputas',
      items: [
        'En un cambio aprobado, cualquiera de los dos puede presionar "Abrir una disputa" en el detalle del cambio, elegir un motivo (no recibí el pago, monto incorrecto, pago de un tercero, no responde, otro) y contar qué pasó. Responder No a "¿Recibiste …?" también abre una.',
        'El cambio queda en espera: no se puede completar hasta que un administrador resuelva la disputa. El chat sigue abierto: adjunta ahí tus comprobantes de pago.',
        'Un administrador revisa el cambio, su chat y comprobantes y el historial de ambas personas; luego marca el cambio como completado o cancelado, y puede darle una advertencia a quien falló o suspender sus cambios.',
        'Los resultados de las disputas, advertencias y suspensiones de cada persona se muestran en su tarjeta del directorio de usuarios.',
      ],
    },
    never: {
      heading: 'Lo que Puente nunca hace',
      items: [
        'Puente nunca guarda, envía ni recibe el dinero de un cambio: va solo del banco de una persona al de la otra.',
        'Puente nunca te pide tu contraseña, tus códigos de inicio de sesión ni tus códigos de recuperación: ni por correo, ni por chat, ni por teléfono, ni de ninguna otra forma.',
        'Puente nunca te pide pagar fuera de tu banco: ni efectivo, ni tarjetas, ni cripto, ni a terceros, ni a otra cuenta que no sea la de tu contraparte que aparece en el cambio.',
        'Puente nunca muestra tus datos bancarios a otra persona antes de que quien publicó la solicitud apruebe tu match, y entonces solo a tu contraparte.',
      ],
      warning: 'Quien te pida algo de esto en nombre de Puente no es Puente: no respondas y repórtalo.',
    },
    scales: {
      heading: 'Calificación, nivel de confianza y categoría del directorio',
      intro: 'Tres medidas distintas, cada una con su propio nombre:',
    },
    report: {
      heading: 'Cómo reportar un problema',
      items: [
        'Un problema en un cambio (no llegó el pago, el monto no es el acordado, el dinero llegó de otra persona, tu contraparte dejó de responder): abre el detalle del cambio y presiona "Abrir una disputa".',
        'Cualquier otra cosa, como un mensaje sospechoso o alguien que te pide tu contraseña: inicia sesión y escríbenos en la página Ayuda.',
        'Alguien con quien no quieres cambiar: presiona Bloquear en su tarjeta del directorio de usuarios. Ninguno de los dos verá ni podrá aceptar las solicitudes del otro. Tus usuarios bloqueados aparecen en tu perfil.',
      ],
      help: 'Ir a Ayuda',
      directory: 'Abrir el directorio de usuarios',
    },
  },
};
