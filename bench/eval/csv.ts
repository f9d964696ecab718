import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

/**
 * Splits one CSV record into fields ("" escapes a quote inside
 * a quoted field); null while a quoted field is still open.
 */
export function parseCsvRecord(text: string): string[] | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  if (quoted) return null;
  fields.push(field);
  return fields;
}

/** Streams the records of a gzipped CSV file, header first; a quoted field may span lines. */
export async function* readCsvGz(path: string): AsyncGenerator<string[]> {
  const lines = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  let pending: string | null = null;
  for await (const line of lines) {
    const text: string = pending === null ? line : `${pending}\n${line}`;
    const record = parseCsvRecord(text);
    if (record === null) {
      pending = text;
      continue;
    }
    pending = null;
    if (text !== '') yield record;
  }
  if (pending !== null) throw new Error(`${path}: unterminated quoted field at the end of the file`);
}
