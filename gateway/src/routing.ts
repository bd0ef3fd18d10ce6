/** Paths as the gateway's own checks compare them (which route goes where comes from the declarations: proxy.ts). */
/**
 * A request's path as the services' routers will read it, for the gateway's own checks (rate limits, CSRF
 * exemption): no query, percent-decoding undone, no trailing slash. `/api/auth/logi%6E/` is `/api/auth/login`.
 */
export function normalizePath(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch { /* a malformed escape: keep it as sent (the router answers 400 or 404) */ }
  return decoded.length > 1 ? decoded.replace(/\/+$/, '') || '/' : decoded;
}
