/**
 * Said before a merchant types a token this server cannot keep: without REBOUND_SECRET_KEY every
 * token is refused on saving, after the form was filled in.
 */
export function TokenStorageNotice({ what }: { what: string }) {
  return (
    <p className="notice" role="note">
      This server cannot store access tokens yet, so {what} cannot be set up here. Whoever runs it sets{' '}
      <code>REBOUND_SECRET_KEY</code> (64 hex characters, such as the output of <code>openssl rand -hex 32</code>) and
      restarts it.
    </p>
  );
}
