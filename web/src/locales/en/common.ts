/** The shell's texts and words shared by every feature. */
export default {
  signIn: 'Log In',
};
