import { useId, useState } from 'react';
import { useDocumentTitle } from '../title';
import { signInToken } from '../sign-in-token';

/** Sign in with the operator token or a shop's private key; the console keeps it for this tab only. */
export function SignIn({ onSignIn, error }: { onSignIn(token: string): Promise<void>; error: string | null }) {
  useDocumentTitle(['Sign in']);
  const id = useId();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main className="signin">
      <h1>Rebound console</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          await onSignIn(signInToken(token));
          setBusy(false);
        }}
      >
        <label htmlFor={id}>Operator token or shop private key</label>
        <input
          id={id}
          type="password"
          autoComplete="current-password"
          required
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
        <button type="submit" className="primary" disabled={busy || token.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <p className="muted">The token is kept in this browser tab only and sent to this server alone.</p>
      </form>
    </main>
  );
}
