/** Admin monitoring's texts (spec section 2). */
export default {
  adminsOnly: 'This page is for admins only.',
  adminsOnlyText: "Sign-up and login monitoring is shown to Puente's administrators.",
  tabs: {
    label: 'Monitoring',
    'signup-failures': 'Signup Failures',
    'login-failures': 'Login Failures',
    'signup-attempts': 'Signup Attempts',
    'login-attempts': 'Login Attempts',
  },
  stats: { signupFailures: 'Signup failures', loginFailures: 'Login failures', signupAttempts: 'Signup attempts', loginAttempts: 'Login attempts' },
  filters: { label: 'Filters', email: 'Email', from: 'Date from', to: 'Date to', apply: 'Apply', clear: 'Clear' },
  columns: {
    time: 'Time', email: 'Email', step: 'Step', method: 'Method', status: 'Status', reason: 'Reason', count: 'Count',
    referralCode: 'Referral code', ip: 'IP address', userAgent: 'User agent',
  },
  loadFailed: 'Unable to load this list: {{message}}',
  nothing: 'Nothing recorded for these filters.',
};
