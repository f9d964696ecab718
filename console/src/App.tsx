import { useCallback, useEffect, useState } from 'react';
import { ApiError, createApi } from './api';
import { KeptStateProvider } from './kept-state';
import { SignIn } from './pages/SignIn';
import { SignedIn } from './SignedIn';
import type { Session, Shop } from './types';

const TOKEN_KEY = 'rebound.console.token';

export function App() {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY));
  const [session, setSession] = useState<Session | null>(null);
  const [signInError, setSignInError] = useState<string | null>(null);

  const signOut = useCallback(() => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken(null);
    setSession(null);
  }, []);

  // The server refused the token mid-session (the key was ended, or replaced and its day is over).
  const refused = useCallback(() => {
    signOut();
    setSignInError('Your sign-in has ended: the key was ended or replaced. Sign in with your current private key.');
  }, [signOut]);

  const signIn = useCallback(async (candidate: string) => {
    // A public key is no sign-in at all, and it says so by its prefix: no need to ask the server.
    if (candidate.startsWith('rb_pub_')) {
      setSignInError(
        "That is the shop's public key, for storefronts; " +
          'sign in with its private key (rb_priv_…) or the operator token.',
      );
      setToken(null);
      return;
    }
    try {
      const api = createApi(candidate, () => undefined);
      const found = await api.get<Session>('/session');
      sessionStorage.setItem(TOKEN_KEY, candidate);
      setSignInError(null);
      setSession(found);
      setToken(candidate);
    } catch (error) {
      const refused = error instanceof ApiError && error.status === 401;
      setSignInError(
        refused
          ? "That token was not accepted. Use the operator token or a shop's private key."
          : (error as Error).message,
      );
      // Only a refused token is forgotten: a brief outage must not sign the merchant out.
      if (refused) sessionStorage.removeItem(TOKEN_KEY);
      setToken(null);
    }
  }, []);

  // A token kept from earlier in this tab signs in again on reload.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount; later sign-ins come from the form
  useEffect(() => {
    if (token && !session) void signIn(token);
  }, []);

  // Rotating the private key this tab signed in with ends it: the console goes on with the new one.
  const replaceToken = useCallback((next: string) => {
    sessionStorage.setItem(TOKEN_KEY, next);
    setToken(next);
  }, []);

  const shopChanged = useCallback(
    (changed: Shop) =>
      setSession(
        (current) =>
          current && { ...current, shops: current.shops.map((s) => (s.handle === changed.handle ? changed : s)) },
      ),
    [],
  );

  if (!token || !session)
    return token && !signInError ? (
      <p className="muted pad">Signing in…</p>
    ) : (
      <SignIn onSignIn={signIn} error={signInError} />
    );
  // What pages keep for later (the catalog's search, the preview's inputs) is forgotten on signing out.
  return (
    <KeptStateProvider>
      <SignedIn
        token={token}
        session={session}
        onSignOut={signOut}
        onRefused={refused}
        onShopChanged={shopChanged}
        onTokenReplaced={replaceToken}
      />
    </KeptStateProvider>
  );
}
