/**
 * The one-time token of an emailed link (/verify-email#token=…, /reset-password#token=…). It is in the fragment,
 * which a browser never sends, so no server, proxy or log along the way sees it. A link emailed before carried it as
 * ?token=…: still read, and the address moved to the fragment form at once, so that the token leaves the query
 * (and the page's history entry) before anything else is requested.
 */
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

export function useLinkToken(): string {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const inFragment = new URLSearchParams(hash.slice(1)).get('token');
  const inQuery = new URLSearchParams(search).get('token');
  const token = (inFragment ?? inQuery ?? '').trim();

  useEffect(() => {
    if (inFragment !== null || inQuery === null) return;
    const rest = new URLSearchParams(search);
    rest.delete('token');
    const others = rest.toString();
    void navigate({ pathname, search: others ? `?${others}` : '', hash: new URLSearchParams({ token: inQuery }).toString() }, { replace: true });
  }, [inFragment, inQuery, pathname, search, navigate]);

  return token;
}
