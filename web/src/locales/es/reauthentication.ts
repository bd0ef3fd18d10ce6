/** La prueba que se pide antes de lo que no se puede deshacer (eliminar la cuenta, contraseñas, verificación en dos pasos), y vincular Google. */
export default {
  currentPassword: 'Contraseña actual',
  code: 'Código de tu app de autenticación',
  codeHint: 'La verificación en dos pasos está activada: ingresa el código de 6 dígitos que muestra tu app ahora.',
  googleIntro: 'Tu cuenta inicia sesión con Google. Para confirmar, vuelve a iniciar sesión con Google: sirve por 5 minutos.',
  googleButton: 'Volver a iniciar sesión con Google',
  googleDone: 'Volviste a iniciar sesión con Google: confirma dentro de los próximos 5 minutos.',
  googleFailed: 'El inicio de sesión con Google no lo confirmó: {{reason}}',
};
