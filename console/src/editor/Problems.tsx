import type { Problem } from '../types';
import { fieldOf } from './placement';

/** The server's problems for one place, each led by the field it is about. */
export function Problems({ problems, id }: { problems: Problem[]; id?: string }) {
  if (problems.length === 0) return null;
  return (
    <ul className="problems" id={id}>
      {problems.map((p) => (
        <li key={`${p.path}:${p.message}`}>
          <strong>{fieldOf(p.path)}</strong> {p.message}
        </li>
      ))}
    </ul>
  );
}
