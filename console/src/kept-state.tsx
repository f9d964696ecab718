import { createContext, useCallback, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';

/**
 * Values that outlive the page that made them while the merchant stays signed in: the catalog's
 * search and page, the live preview's inputs, the message a save leaves for the next editor.
 * Held by a provider, so each signed-in console has its own and signing out forgets them.
 */
export class KeptStore {
  private readonly values = new Map<string, unknown>();
  private readonly listeners = new Set<() => void>();

  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  set(key: string, value: unknown): void {
    this.values.set(key, value);
    for (const listener of this.listeners) listener();
  }

  /** Forgets a value without re-rendering anyone: for values read once, on mount. */
  forget(key: string): void {
    this.values.delete(key);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const KeptContext = createContext<KeptStore | null>(null);

/** Gives its part of the tree one store of kept values. */
export function KeptStateProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => new KeptStore());
  return <KeptContext.Provider value={store}>{children}</KeptContext.Provider>;
}

/** The store of the nearest provider. */
export function useKeptStore(): KeptStore {
  const store = useContext(KeptContext);
  if (!store) throw new Error('useKeptStore outside a KeptStateProvider');
  return store;
}

/**
 * Like `useState`, but the value is kept under `key` by the provider, so the page finds it again
 * when it comes back. `initial` must be the same object on every render (a constant).
 */
export function useKeptState<T>(key: string, initial: T): [T, (next: T) => void] {
  const store = useKeptStore();
  const value = useSyncExternalStore(store.subscribe, () => store.get<T>(key) ?? initial);
  const set = useCallback((next: T) => store.set(key, next), [store, key]);
  return [value, set];
}
