import { useEffect, useRef } from 'react';

export interface Said {
  error: boolean;
  text: string;
}

/**
 * What an action did, or why it did not, announced and focused: the button pressed is disabled
 * while the action runs, and focus would otherwise fall to the page.
 */
export function ActionMessage({ message, okClass = 'ok' }: { message: Said | null; okClass?: string }) {
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) said.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <p ref={said} tabIndex={-1} className={message.error ? 'error' : okClass} role={message.error ? 'alert' : 'status'}>
      {message.text}
    </p>
  );
}
