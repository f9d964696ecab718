import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** The codes docs/api.md lists under "Error codes", with their statuses: what a client may rely on. */
export function documentedErrorCodes(): Map<string, number> {
  const text = readFileSync(join(import.meta.dirname, '../../docs/api.md'), 'utf8');
  const section = text.split('### Error codes')[1]?.split(/\n#{2,3} /)[0] ?? '';
  return new Map([...section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
}

const DOCUMENTED = documentedErrorCodes();

/** An error body carries a documented code of its status, and a parameter error names its parameter. */
export function expectDocumentedCode(body: Record<string, unknown>, status: number, what: string): void {
  expect(DOCUMENTED.get(String(body.code)), `code of ${what}`).toBe(status);
  if (body.code === 'missing_parameter' || body.code === 'invalid_parameter')
    expect(typeof body.parameter, `parameter of ${what}`).toBe('string');
}
