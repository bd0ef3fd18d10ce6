/** The dashboard's welcome (spec section 2). */
export default {
  title: 'Dashboard',
  welcome: 'Welcome back, {{name}}!',
  trustRating: 'Trust rating:',
};
