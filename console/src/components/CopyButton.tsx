import { type RefObject, useState } from 'react';

/**
 * Copies `text`. Where the browser offers no clipboard (plain http on an address other than localhost) or
 * refuses it, the text shown in `source` is selected instead and the merchant is told to copy it by keyboard.
 */
export function CopyButton({
  text,
  source,
  label,
  className,
}: {
  text: string;
  source: RefObject<HTMLElement | null>;
  label: string;
  className?: string;
}) {
  const [said, setSaid] = useState<string | null>(null);
  const select = () => {
    const shown = source.current;
    const selection = window.getSelection();
    if (shown && selection) selection.selectAllChildren(shown);
    setSaid('Selected: press Ctrl+C (⌘C on a Mac) to copy it.');
  };
  const copy = () => {
    setSaid(null);
    // Typed as always there; it is undefined outside a secure context.
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (typeof clipboard?.writeText !== 'function') return select();
    clipboard.writeText(text).then(() => setSaid('Copied.'), select);
  };
  return (
    <>
      <button type="button" className={className} onClick={copy}>
        {label}
      </button>
      <span role="status">{said === null ? '' : ` ${said}`}</span>
    </>
  );
}
