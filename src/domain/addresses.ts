/** A character an address may hold before its `@` (what may precede it within a longer one). */
const LOCAL_PART = /[a-z0-9._%+\-']/;
/** A character that would carry the domain on (a `.` only when more of the domain follows). */
const DOMAIN_ON = /[a-z0-9_-]/;

/**
 * Whether lower-cased text holds this lower-cased address whole: not within a longer one
 * (`jimbob@x.com`, `bob@x.com.au`), and wherever it stands (a key `march:bob@x.com`, a note
 * `Gift for <bob@x.com>.`).
 */
export function holdsAddress(text: string, address: string): boolean {
  if (address === '') return false;
  for (let at = text.indexOf(address); at !== -1; at = text.indexOf(address, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const end = at + address.length;
    const after = text[end] ?? '';
    const carriesOn = DOMAIN_ON.test(after) || (after === '.' && DOMAIN_ON.test(text[end + 1] ?? ''));
    if (!LOCAL_PART.test(before) && !carriesOn) return true;
  }
  return false;
}
