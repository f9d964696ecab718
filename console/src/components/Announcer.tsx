/**
 * Two live regions that are always there, one polite and one assertive; a message fills the one
 * that fits. (A region whose role changes together with its text is often not read out.)
 */
export function Announcer({ message }: { message: { kind: 'ok' | 'error'; text: string } | null }) {
  return (
    <>
      <p className="ok" role="status">
        {message?.kind === 'ok' ? message.text : ''}
      </p>
      <p className="error" role="alert">
        {message?.kind === 'error' ? message.text : ''}
      </p>
    </>
  );
}
