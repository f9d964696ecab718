const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': ' ',
};

/** How much of a description is read: descriptions can be megabytes; their text is for search and excerpts. */
export const MAX_HTML_READ = 64 * 1024;

/**
 * The text of `body_html`: tags removed, common entities decoded, whitespace collapsed, at most
 * `maxChars` long. One pass, linear in the input: a regular expression such as `<[^>]*>` rescans
 * the rest of the text from every `<` that has no `>`, which is quadratic on hostile input.
 */
export function plainText(html: string, maxChars: number): string {
  const input = html.length > MAX_HTML_READ ? html.slice(0, MAX_HTML_READ) : html;
  let out = '';
  let at = 0;
  while (at < input.length) {
    const open = input.indexOf('<', at);
    if (open < 0) {
      out += input.slice(at);
      break;
    }
    out += input.slice(at, open);
    const close = input.indexOf('>', open + 1);
    // No '>' after this '<': none after any later '<' either, so the rest is text.
    if (close < 0) {
      out += input.slice(open);
      break;
    }
    out += ' ';
    at = close + 1;
  }
  const text = out
    .replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e] ?? e)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
