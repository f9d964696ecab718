import type { Problem } from '../types';
import { fieldWordOf } from './placement';

/** The server's problems for one place, each led by the field it is about. */
export function Problems({ problems, id }: { problems: Problem[]; id?: string }) {
  if (problems.length === 0) return null;
  return (
    <ul className="problems" id={id}>
      {problems.map((p) => (
        <li key={`${p.path}:${p.message}`}>
          <strong>{fieldWordOf(p.path)}</strong> {p.message}
        </li>
      ))}
    </ul>
  );
}
